import type { Document } from 'mongodb';
import { zeroCounts } from './figures.js';
import type { DeploymentFigures, DeploymentStatus, Distribution, FigureTotals, FiguresGroup, FiguresGroupQuery, FiguresQuery } from './types.js';

/*
 * The figures of one repository's window in one aggregation (MongoDB 5.2 or later: $setWindowFields,
 * $shift, $sortArray). The plan and why it is cheap are in docs/self-hosting.md ("Ledger figures").
 */

/**
 * The index the aggregation reads: (repositoryId, environment, recordedAt, _id). Named, so the plan
 * never depends on the planner's trial (the idempotency index also starts with repositoryId).
 * Without an environment the scan's environment bounds are [MinKey, MaxKey] and it seeks to the
 * recordedAt range within each environment of the repository.
 */
export const FIGURES_INDEX = 'history_by_environment';

const FAILING = ['failure', 'rolled-back'];
const isStatus = (status: string): Document => ({ $eq: ['$status', status] });
const isFailing: Document = { $in: ['$status', FAILING] };
const countOf = (status: string): Document => ({ $sum: { $cond: [isStatus(status), 1, 0] } });
const withoutNulls = (array: string): Document => ({ $filter: { input: array, cond: { $ne: ['$$this', null] } } });

/** Element at the 1-based nearest rank ⌈p·n/100⌉ of a sorted array (p·n is exact, as in figures.ts). */
const atRank = (sorted: string, p: number): Document => ({
  $arrayElemAt: [sorted, { $toInt: { $subtract: [{ $ceil: { $divide: [{ $multiply: [p, { $size: sorted }] }, 100] } }, 1] } }],
});
const distribution = (sorted: string): Document => ({
  $cond: [{ $eq: [{ $size: sorted }, 0] }, null, { median: atRank(sorted, 50), p90: atRank(sorted, 90), count: { $size: sorted } }],
});

/**
 * Streaks run per environment (of one repository, and one week when grouped by week) over the
 * non-skipped records; skipped ones get a partition of their own, so they are counted but never
 * seen as a streak's neighbour. (recordedAt, _id) is the history's order, so equal times resolve
 * as the listing shows them.
 */
const ORDER: Document = { recordedAt: 1, _id: 1 };
const UTC_DATE: Document = { $dateToString: { date: '$recordedAt', format: '%Y-%m-%d', timezone: 'UTC' } };

/**
 * The stages after the `$match`, shared by the one-repository query and the grouped one: `group`
 * is the `$group` key (null: one group of everything matched), `daily` adds the per-day counts.
 */
function figureStages(group: Document | null, byWeek: boolean, daily: boolean): Document[] {
  const partition: Document = { repositoryId: '$repositoryId', environment: '$environment', ...(byWeek ? { week: '$week' } : {}), skipped: { $eq: ['$status', 'skipped'] } };
  const totals = { success: 1, failure: 1, rolledBack: 1, skipped: 1 };
  return [
    ...(byWeek ? [{ $set: { week: { $dateTrunc: { date: '$recordedAt', unit: 'week', startOfWeek: 'monday', timezone: 'UTC' } } } }] : []),
    { $setWindowFields: { partitionBy: partition, sortBy: ORDER, output: { previousStatus: { $shift: { output: '$status', by: -1, default: null } } } } },
    // A failing record after a success, or first in its environment's window, opens a streak.
    { $set: { streakStart: { $cond: [{ $and: [isFailing, { $not: [{ $in: ['$previousStatus', FAILING] }] }] }, '$recordedAt', null] } } },
    // The start of the streak a record belongs to: the latest start so far ($max skips nulls).
    { $setWindowFields: { partitionBy: partition, sortBy: ORDER, output: { lastStart: { $max: '$streakStart', window: { documents: ['unbounded', 'current'] } } } } },
    {
      $group: {
        _id: group,
        success: countOf('success'),
        failure: countOf('failure'),
        rolledBack: countOf('rolled-back'),
        skipped: countOf('skipped'),
        successDates: { $addToSet: { $cond: [isStatus('success'), UTC_DATE, null] } },
        // One "<UTC date> <status>" per record, counted per day in figuresFrom.
        ...(daily ? { dayStatuses: { $push: { $concat: [UTC_DATE, ' ', '$status'] } } } : {}),
        // A success right after a failing record ends a streak.
        recoveries: {
          $push: { $cond: [{ $and: [isStatus('success'), { $in: ['$previousStatus', FAILING] }] }, { $subtract: ['$recordedAt', '$lastStart'] }, null] },
        },
        leadTimes: {
          $push: { $cond: [{ $and: [isStatus('success'), { $eq: [{ $type: '$committedAt' }, 'date'] }] }, { $subtract: ['$recordedAt', '$committedAt'] }, null] },
        },
      },
    },
    {
      $project: {
        ...(group === null ? { _id: 0 } : {}),
        ...totals,
        successDays: { $size: withoutNulls('$successDates') },
        ...(daily ? { dayStatuses: 1 } : {}),
        recoveries: { $sortArray: { input: withoutNulls('$recoveries'), sortBy: 1 } },
        leadTimes: { $sortArray: { input: withoutNulls('$leadTimes'), sortBy: 1 } },
      },
    },
    {
      $project: {
        ...totals,
        successDays: 1,
        ...(daily ? { dayStatuses: 1 } : {}),
        recovery: distribution('$recoveries'),
        leadTime: distribution('$leadTimes'),
      },
    },
  ];
}

/**
 * The window's records: equality on repositoryId (and environment) and a range on recordedAt, an
 * index range scan of the history indexes; expireAt is checked on the fetched documents.
 */
function windowMatch(repositoryId: unknown, query: Omit<FiguresQuery, 'repositoryId'>): Document {
  return {
    $match: {
      repositoryId,
      ...(query.environment === undefined ? {} : { environment: query.environment }),
      recordedAt: { $gte: query.from, $lte: query.to },
      expireAt: { $gt: query.now },
    },
  };
}

export function figuresPipeline(query: FiguresQuery): Document[] {
  return [windowMatch(query.repositoryId, query), ...figureStages(null, false, true)];
}

/**
 * Many repositories' figures in one aggregation, one group per (repository, environment[, week]).
 * `$in` on repositoryId is one range of the same index per repository: still an index scan.
 */
export function groupedFiguresPipeline(query: FiguresGroupQuery): Document[] {
  const byWeek = query.byWeek === true;
  return [
    windowMatch({ $in: [...new Set(query.repositoryIds)] }, query),
    ...figureStages({ repositoryId: '$repositoryId', environment: '$environment', ...(byWeek ? { week: '$week' } : {}) }, byWeek, false),
  ];
}

/** The pipeline's one document (none when no record matched). */
export interface FiguresDoc {
  success: number;
  failure: number;
  rolledBack: number;
  skipped: number;
  successDays: number;
  dayStatuses: string[];
  recovery: Distribution | null;
  leadTime: Distribution | null;
}

const number = (value: unknown): number => Number(value);
const distributionFrom = (d: Distribution | null): Distribution | null =>
  d === null ? null : { median: number(d.median), p90: number(d.p90), count: number(d.count) };

function totalsFrom(doc: Omit<FiguresDoc, 'dayStatuses'>): FigureTotals {
  return {
    counts: { success: number(doc.success), failure: number(doc.failure), 'rolled-back': number(doc.rolledBack), skipped: number(doc.skipped) },
    successDays: number(doc.successDays),
    recovery: distributionFrom(doc.recovery),
    leadTime: distributionFrom(doc.leadTime),
  };
}

/** One group of the grouped pipeline. */
export interface FiguresGroupDoc extends Omit<FiguresDoc, 'dayStatuses'> {
  _id: { repositoryId: string; environment: string; week?: Date };
}

export function groupFrom(doc: FiguresGroupDoc): FiguresGroup {
  const { repositoryId, environment, week } = doc._id;
  return { repositoryId, environment, ...(week ? { week: week.toISOString().slice(0, 10) } : {}), figures: totalsFrom(doc) };
}

export function figuresFrom(doc: FiguresDoc | undefined): DeploymentFigures {
  if (!doc) return { counts: zeroCounts(), successDays: 0, recovery: null, leadTime: null, byDay: new Map() };
  const byDay = new Map<string, Record<DeploymentStatus, number>>();
  for (const entry of doc.dayStatuses) {
    const [date, status] = entry.split(' ') as [string, DeploymentStatus];
    let day = byDay.get(date);
    if (!day) byDay.set(date, (day = zeroCounts()));
    day[status]++;
  }
  return { byDay, ...totalsFrom(doc) };
}
