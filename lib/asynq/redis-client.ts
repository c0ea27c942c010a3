/**
 * The connection type every core function accepts, in a module of its own so that a file
 * needing only the type does not import the cluster topology code (lib/asynq/topology.ts).
 */
import type { Cluster, Redis } from 'ioredis';

/** One Redis server, or a Redis Cluster. */
export type RedisClient = Redis | Cluster;
