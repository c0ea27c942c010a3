//go:build asynq_pre025

// asynq v0.24 has no NewClientFromRedisClient/NewInspectorFromRedisClient, no
// RevokeTask and a fixed 5 s scheduler heartbeat.
package main

import (
	"errors"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

const revokeSupported = false

// revokeTask is an ordinary error here: v0.24 retries or archives the task.
var revokeTask = errors.New("RevokeTask does not exist before asynq v0.25")

// redisConn hands asynq an existing client: RedisConnOpt is just a factory.
type redisConn struct{ rc redis.UniversalClient }

func (c redisConn) MakeRedisClient() interface{} { return c.rc }

// clientOver is a Client over rc. v0.24's Client.Close closes rc too, so
// callers close each Client at most once and never rc afterwards.
func clientOver(rc redis.UniversalClient) *asynq.Client { return asynq.NewClient(redisConn{rc}) }

// inspectorOver is an Inspector over rc (Close closes rc, as above).
func inspectorOver(rc redis.UniversalClient) *asynq.Inspector {
	return asynq.NewInspector(redisConn{rc})
}

// schedulerOpts: v0.24 beats every 5 s, whatever is asked.
func schedulerOpts(time.Duration) *asynq.SchedulerOpts { return &asynq.SchedulerOpts{} }

// serverOver is a Server over rc.
func serverOver(rc redis.UniversalClient, cfg asynq.Config) *asynq.Server {
	return asynq.NewServer(redisConn{rc}, cfg)
}
