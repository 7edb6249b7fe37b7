import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AccessGuard } from '../access/access.guard';
import { GetChartsUseCase } from './get-charts.usecase';

/** The console's charts. Bearer ADMIN_TOKEN. */
@Controller('admin/charts')
@UseGuards(AccessGuard)
export class ChartsAdminController {
  constructor(private readonly getCharts: GetChartsUseCase) {}

  /** `?minutes=60` (default): one value per sampled slot and series. */
  @Get()
  charts(@Query('minutes') minutes?: string) {
    return this.getCharts.execute(minutes);
  }
}
