//go:build asynq_pre026

// asynq v0.25 and v0.24 have no task headers and no Inspector.UpdateTaskPayload.
// Their decoder skips field 15, so a handler and the Inspector never see headers
// another client wrote, and a server that rewrites the message (retry, archive)
// writes it back without them.
package main

import (
	"errors"

	"github.com/hibiken/asynq"
)

const headersSupported = false

// newTaskWithHeaders drops the headers: fixtures still get their task, without them.
func newTaskWithHeaders(typ string, payload []byte, _ map[string]string) *asynq.Task {
	return asynq.NewTask(typ, payload)
}

// taskHeaders is nil, printed as JSON null: this asynq cannot see headers at all.
func taskHeaders(*asynq.Task) map[string]string { return nil }

// infoHeaders is nil, printed as JSON null: this asynq cannot see headers at all.
func infoHeaders(*asynq.TaskInfo) map[string]string { return nil }

var errNoUpdateTaskPayload = errors.New("Inspector.UpdateTaskPayload does not exist before asynq v0.26")

func updateTaskPayload(*asynq.Inspector, string, string, []byte) error {
	return errNoUpdateTaskPayload
}
