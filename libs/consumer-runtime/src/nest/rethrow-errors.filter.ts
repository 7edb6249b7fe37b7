import { ArgumentsHost, Catch, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';

/**
 * Nest's default RPC filter replaces every error with `{ status: 'error', message: 'Internal server error' }`; the
 * runtime needs the original error to classify it (poison, transient) and to put its class and stack in the dead
 * letter. This filter hands it back unchanged.
 */
@Catch()
export class RethrowErrorsFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}
