//go:build !asynq_pre026

// The parts of the interop program that need asynq v0.26's API: task headers
// (protobuf field 15) and Inspector.UpdateTaskPayload. The builds against older
// releases take asynq_pre026.go instead (see asynq-versions.txt).
package main

import "github.com/hibiken/asynq"

// headersSupported is true when this asynq carries task headers.
const headersSupported = true

// newTaskWithHeaders is asynq.NewTaskWithHeaders.
func newTaskWithHeaders(typ string, payload []byte, headers map[string]string) *asynq.Task {
	return asynq.NewTaskWithHeaders(typ, payload, headers)
}

// taskHeaders is what a handler sees: never nil, so the TS side gets {}.
func taskHeaders(t *asynq.Task) map[string]string {
	if h := t.Headers(); h != nil {
		return h
	}
	return map[string]string{}
}

// infoHeaders is what the Inspector reads: never nil, so the TS side gets {}.
func infoHeaders(t *asynq.TaskInfo) map[string]string {
	if t.Headers != nil {
		return t.Headers
	}
	return map[string]string{}
}

// updateTaskPayload is Inspector.UpdateTaskPayload.
func updateTaskPayload(insp *asynq.Inspector, qname, id string, payload []byte) error {
	return insp.UpdateTaskPayload(qname, id, payload)
}
