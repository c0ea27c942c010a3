package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hibiken/asynq"
)

// enqueueRequest is read from stdin. Pointer fields distinguish "absent" from
// zero/blank so the TS tests can also probe asynq's validation errors (e.g. an
// explicit blank queue or task ID).
type enqueueRequest struct {
	Queue         *string `json:"queue"`
	Type          string  `json:"type"`
	PayloadBase64 *string `json:"payloadBase64"` // null -> nil payload, "" -> empty payload
	Options       struct {
		TaskID           *string `json:"taskId"`
		UniqueSeconds    *int64  `json:"uniqueSeconds"`
		MaxRetry         *int    `json:"maxRetry"`
		TimeoutSeconds   *int64  `json:"timeoutSeconds"`
		ProcessInSeconds *int64  `json:"processInSeconds"`
		RetentionSeconds *int64  `json:"retentionSeconds"`
		Group            *string `json:"group"`
		// Extras beyond the brief, for write-path tests of absolute times.
		ProcessAtUnix *int64 `json:"processAtUnix"`
		DeadlineUnix  *int64 `json:"deadlineUnix"`
	} `json:"options"`
	Headers map[string]string `json:"headers"` // null/absent -> NewTask, object -> NewTaskWithHeaders
}

type enqueueFailure struct {
	OK         bool   `json:"ok"`
	Error      string `json:"error"`
	Duplicate  bool   `json:"duplicate"`
	IDConflict bool   `json:"idConflict"`
}

func runEnqueue(args []string) error {
	fs := flag.NewFlagSet("enqueue", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var req enqueueRequest
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
		if payload == nil {
			payload = []byte{} // DecodeString("") returns a non-nil empty slice, but be explicit
		}
	}

	task := asynq.NewTask(req.Type, payload)
	if req.Headers != nil {
		if !headersSupported {
			return errors.New("headers: this asynq has no task headers (v0.26 and later)")
		}
		task = newTaskWithHeaders(req.Type, payload, req.Headers)
	}
	opts := requestOptions(&req)

	client := asynq.NewClient(rf.connOpt())
	defer client.Close()
	info, err := client.Enqueue(task, opts...)
	if err != nil {
		// An asynq error is a valid answer, not a failure of this tool.
		return writeJSON(enqueueFailure{
			Error:      err.Error(),
			Duplicate:  errors.Is(err, asynq.ErrDuplicateTask),
			IDConflict: errors.Is(err, asynq.ErrTaskIDConflict),
		})
	}
	return writeJSON(struct {
		OK   bool     `json:"ok"`
		Task taskJSON `json:"task"`
	}{true, toTaskJSON(info)})
}

func requestOptions(req *enqueueRequest) []asynq.Option {
	o := req.Options
	sec := func(n int64) time.Duration { return time.Duration(n) * time.Second }
	var opts []asynq.Option
	if req.Queue != nil {
		opts = append(opts, asynq.Queue(*req.Queue))
	}
	if o.TaskID != nil {
		opts = append(opts, asynq.TaskID(*o.TaskID))
	}
	if o.UniqueSeconds != nil {
		opts = append(opts, asynq.Unique(sec(*o.UniqueSeconds)))
	}
	if o.MaxRetry != nil {
		opts = append(opts, asynq.MaxRetry(*o.MaxRetry))
	}
	if o.TimeoutSeconds != nil {
		opts = append(opts, asynq.Timeout(sec(*o.TimeoutSeconds)))
	}
	if o.ProcessInSeconds != nil {
		opts = append(opts, asynq.ProcessIn(sec(*o.ProcessInSeconds)))
	}
	if o.ProcessAtUnix != nil {
		opts = append(opts, asynq.ProcessAt(time.Unix(*o.ProcessAtUnix, 0)))
	}
	if o.RetentionSeconds != nil {
		opts = append(opts, asynq.Retention(sec(*o.RetentionSeconds)))
	}
	if o.DeadlineUnix != nil {
		opts = append(opts, asynq.Deadline(time.Unix(*o.DeadlineUnix, 0)))
	}
	if o.Group != nil {
		opts = append(opts, asynq.Group(*o.Group))
	}
	return opts
}
