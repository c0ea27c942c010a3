//go:build !asynq_pre025

// The parts of the interop program that need asynq v0.25 or later: clients and
// Inspectors over a caller's go-redis client, RevokeTask and the scheduler's
// HeartbeatInterval. The v0.24 build takes asynq_pre025.go instead.
package main

import (
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// revokeSupported is true when this asynq has RevokeTask.
const revokeSupported = true

// revokeTask is asynq.RevokeTask.
var revokeTask = asynq.RevokeTask

// clientOver is a Client that does not own rc.
func clientOver(rc redis.UniversalClient) *asynq.Client { return asynq.NewClientFromRedisClient(rc) }

// inspectorOver is an Inspector that does not own rc.
func inspectorOver(rc redis.UniversalClient) *asynq.Inspector {
	return asynq.NewInspectorFromRedisClient(rc)
}

// schedulerOpts asks for a heartbeat every interval: the first one is only
// written after one interval, so a short one makes the scheduler visible soon.
func schedulerOpts(interval time.Duration) *asynq.SchedulerOpts {
	return &asynq.SchedulerOpts{HeartbeatInterval: interval}
}

// serverOver is a Server over rc.
func serverOver(rc redis.UniversalClient, cfg asynq.Config) *asynq.Server {
	return asynq.NewServerFromRedisClient(rc, cfg)
}
