import 'server-only';
import type { AsynqError } from '@asynqlens/asynq';

/**
 * An item a batch could not change (bulk, search action, re-run, keep-one), as every batch
 * answer lists it: its ID and its error's code and message, without the error's details.
 */
export const toItemFailure = (f: { id: string; error: AsynqError }) => ({ id: f.id, error: { code: f.error.kind, message: f.error.message } });

/**
 * A batch's result (bulk, re-run) with its failures as the wire lists them. The rest of the
 * result is the core's as it is: those fields are the contract's already.
 */
export const withItemFailures = <R extends { failed: { id: string; error: AsynqError }[] }>(r: R) => ({ ...r, failed: r.failed.map(toItemFailure) });
