import { Database } from '@app/db';
import { SagaDetail, SagaViews } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { notFound } from '@app/http';
import { sagaId } from './saga-query';

/** GET /admin/sagas/:id: the saga, its data, what its steps replied, and every transition. */
@Injectable()
export class ShowSagaUseCase {
  constructor(private readonly database: Database) {}

  async execute(id: string): Promise<SagaDetail> {
    const saga = await SagaViews.find(await this.database.connection(), sagaId(id));
    if (!saga) throw notFound(`no saga with id ${id}`);
    return saga;
  }
}
