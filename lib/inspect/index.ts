export * from './model';
export { foldInspection } from './fold';
export { formatMs, iterationBars, type BarKind } from './timeline';
export { FORMAT_NAMES, parseSegments, type Segment, type SegmentKind } from './parse-view';
export {
  buildRunExport,
  parseRunExport,
  RUN_EXPORT_SCHEMA,
  RunExportSchema,
  runExportFileName,
  type ParseResult,
  type RunExport,
} from './export';
export { fixtureFileName, runToFixture } from './fixture';
