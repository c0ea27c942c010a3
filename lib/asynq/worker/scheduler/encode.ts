/**
 * The scheduler's record encoders live in the shared codec (the one file that touches the
 * generated protobuf code); re-exported here for the scheduler's modules.
 */
export { encodeSchedulerEnqueueEvent, encodeSchedulerEntry } from '../../codec';
