import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AdminTokenGuard } from '../admin-token.guard';
import { GetChartsUseCase } from './get-charts.usecase';

/** The console's charts. Bearer ADMIN_TOKEN. */
@Controller('admin/charts')
@UseGuards(AdminTokenGuard)
export class ChartsAdminController {
  constructor(private readonly getCharts: GetChartsUseCase) {}

  /** `?minutes=60` (default): one value per sampled slot and series. */
  @Get()
  charts(@Query('minutes') minutes?: string) {
    return this.getCharts.execute(minutes);
  }
}
