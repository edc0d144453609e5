// The per-viewer view the server sends: exactly engine.view() for this viewer.
export type { TableView as ViewState, TransactionView } from '@tablekeeper/engine';
