package main

// enqueue-many enqueues every request of a JSON array read from stdin (the
// same request shape as `enqueue`) with one asynq.Client, and prints one JSON
// array of outcomes in the same order.

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/hibiken/asynq"
)

type enqueueManyResult struct {
	OK    bool   `json:"ok"`
	ID    string `json:"id,omitempty"`
	Error string `json:"error,omitempty"`
}

func runEnqueueMany(args []string) error {
	fs := flag.NewFlagSet("enqueue-many", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var reqs []enqueueRequest
	dec := json.NewDecoder(os.Stdin)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&reqs); err != nil {
		return fmt.Errorf("bad request JSON: %w", err)
	}
	client := asynq.NewClient(rf.connOpt())
	defer client.Close()
	out := make([]enqueueManyResult, len(reqs))
	for i := range reqs {
		req := &reqs[i]
		var payload []byte
		if req.PayloadBase64 != nil {
			var err error
			if payload, err = base64.StdEncoding.DecodeString(*req.PayloadBase64); err != nil {
				return fmt.Errorf("request %d: bad payloadBase64: %w", i, err)
			}
		}
		task := asynq.NewTask(req.Type, payload)
		if req.Headers != nil {
			if !headersSupported {
				return fmt.Errorf("request %d: headers: this asynq has no task headers (v0.26 and later)", i)
			}
			task = newTaskWithHeaders(req.Type, payload, req.Headers)
		}
		info, err := client.Enqueue(task, requestOptions(req)...)
		if err != nil {
			out[i] = enqueueManyResult{Error: err.Error()}
			continue
		}
		out[i] = enqueueManyResult{OK: true, ID: info.ID}
	}
	return writeJSON(out)
}
