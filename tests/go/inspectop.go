package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/hibiken/asynq"
)

// inspectOpRequest is read from stdin; unused fields are simply ignored by
// the ops that do not need them.
type inspectOpRequest struct {
	Op            string  `json:"op"`
	Queue         string  `json:"queue"`
	ID            string  `json:"id"`
	Group         string  `json:"group"`
	PayloadBase64 *string `json:"payloadBase64"` // null/absent -> nil payload
	Force         bool    `json:"force"`
}

type inspectOpFailure struct {
	OK            bool   `json:"ok"`
	Error         string `json:"error"`
	NotFound      bool   `json:"notFound"`
	QueueNotFound bool   `json:"queueNotFound"`
}

// internalErrPkg is where asynq keeps QueueNotFoundError & co. Go forbids
// importing it, so errors.As cannot name the types; matching the dynamic type
// by package path + name is the exact equivalent.
const internalErrPkg = "github.com/hibiken/asynq/internal/errors"

func runInspectOp(args []string) error {
	fs := flag.NewFlagSet("inspect-op", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var req inspectOpRequest
	dec := json.NewDecoder(os.Stdin)
	dec.DisallowUnknownFields() // a typo in a TS test should fail loudly
	if err := dec.Decode(&req); err != nil {
		return fmt.Errorf("bad request JSON: %w", err)
	}
	var payload []byte
	if req.PayloadBase64 != nil {
		var err error
		if payload, err = base64.StdEncoding.DecodeString(*req.PayloadBase64); err != nil {
			return fmt.Errorf("bad payloadBase64: %w", err)
		}
	}

	insp := asynq.NewInspector(rf.connOpt())
	defer insp.Close()
	fn, ok := inspectOps(insp, &req, payload)[req.Op]
	if !ok {
		return fmt.Errorf("unknown op %q", req.Op)
	}
	n, err := fn()
	if err != nil {
		// An asynq error is a valid answer, not a failure of this tool.
		return writeJSON(inspectOpFailure{
			Error:         err.Error(),
			NotFound:      errors.Is(err, asynq.ErrTaskNotFound) || hasInternalErr(err, "TaskNotFoundError"),
			QueueNotFound: errors.Is(err, asynq.ErrQueueNotFound) || hasInternalErr(err, "QueueNotFoundError"),
		})
	}
	return writeJSON(struct {
		OK    bool `json:"ok"`
		Count int  `json:"count"`
	}{true, n})
}

// inspectOps maps each op name to exactly one v0.26.0 Inspector call. Methods
// that return only an error report count 1 on success (one task/queue acted on).
func inspectOps(insp *asynq.Inspector, r *inspectOpRequest, payload []byte) map[string]func() (int, error) {
	one := func(err error) (int, error) {
		if err != nil {
			return 0, err
		}
		return 1, nil
	}
	q, id, g := r.Queue, r.ID, r.Group
	return map[string]func() (int, error){
		"runTask":               func() (int, error) { return one(insp.RunTask(q, id)) },
		"archiveTask":           func() (int, error) { return one(insp.ArchiveTask(q, id)) },
		"deleteTask":            func() (int, error) { return one(insp.DeleteTask(q, id)) },
		"cancelProcessing":      func() (int, error) { return one(insp.CancelProcessing(id)) },
		"updateTaskPayload":     func() (int, error) { return one(updateTaskPayload(insp, q, id, payload)) },
		"pauseQueue":            func() (int, error) { return one(insp.PauseQueue(q)) },
		"unpauseQueue":          func() (int, error) { return one(insp.UnpauseQueue(q)) },
		"deleteQueue":           func() (int, error) { return one(insp.DeleteQueue(q, r.Force)) },
		"runAllScheduled":       func() (int, error) { return insp.RunAllScheduledTasks(q) },
		"runAllRetry":           func() (int, error) { return insp.RunAllRetryTasks(q) },
		"runAllArchived":        func() (int, error) { return insp.RunAllArchivedTasks(q) },
		"runAllAggregating":     func() (int, error) { return insp.RunAllAggregatingTasks(q, g) },
		"archiveAllPending":     func() (int, error) { return insp.ArchiveAllPendingTasks(q) },
		"archiveAllScheduled":   func() (int, error) { return insp.ArchiveAllScheduledTasks(q) },
		"archiveAllRetry":       func() (int, error) { return insp.ArchiveAllRetryTasks(q) },
		"archiveAllAggregating": func() (int, error) { return insp.ArchiveAllAggregatingTasks(q, g) },
		"deleteAllPending":      func() (int, error) { return insp.DeleteAllPendingTasks(q) },
		"deleteAllScheduled":    func() (int, error) { return insp.DeleteAllScheduledTasks(q) },
		"deleteAllRetry":        func() (int, error) { return insp.DeleteAllRetryTasks(q) },
		"deleteAllArchived":     func() (int, error) { return insp.DeleteAllArchivedTasks(q) },
		"deleteAllCompleted":    func() (int, error) { return insp.DeleteAllCompletedTasks(q) },
		"deleteAllAggregating":  func() (int, error) { return insp.DeleteAllAggregatingTasks(q, g) },
	}
}

// hasInternalErr walks err's Unwrap chain looking for *internal/errors.<name>.
// Fallback to the text for chains broken by "%v" (UpdateTaskPayload wraps
// non-sentinel errors that way), matching the fixed Error() formats.
func hasInternalErr(err error, name string) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		t := reflect.TypeOf(e)
		if t.Kind() == reflect.Pointer && t.Elem().PkgPath() == internalErrPkg && t.Elem().Name() == name {
			return true
		}
	}
	s := err.Error()
	switch name {
	case "TaskNotFoundError":
		return strings.Contains(s, "cannot find task with id=")
	case "QueueNotFoundError":
		return strings.Contains(s, "queue \"") && strings.Contains(s, "\" does not exist")
	}
	return false
}
