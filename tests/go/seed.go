package main

// The task sets the topology subcommands (cluster-seed, sentinel-seed) enqueue:
// one task of each kind the console shows, per queue, printed as queue -> label
// -> task ID for the TS suites to look up.

import (
	"fmt"
	"strings"
	"time"

	"github.com/hibiken/asynq"
)

// seededJSON maps queue -> label -> task ID.
type seededJSON map[string]map[string]string

// seedKind is one task of a seed set: its label in seededJSON, the task and its options.
type seedKind struct {
	label string
	task  *asynq.Task
	opts  []asynq.Option
}

// baseSeedKinds are the kinds every seed set has: pending (with a header),
// scheduled, unique, grouped, and a pending task that fails for good when processed.
func baseSeedKinds(payload []byte) []seedKind {
	return []seedKind{
		{"pending", newTaskWithHeaders("ok:go", payload, map[string]string{"from": "go"}), []asynq.Option{asynq.MaxRetry(3)}},
		{"scheduled", asynq.NewTask("ok:later", payload), []asynq.Option{asynq.ProcessIn(time.Hour)}},
		{"unique", asynq.NewTask("ok:unique", payload), []asynq.Option{asynq.Unique(time.Hour), asynq.ProcessIn(time.Hour)}},
		{"grouped", asynq.NewTask("ok:grouped", payload), []asynq.Option{asynq.Group("g1")}},
		{"failing", asynq.NewTask("fail:go", payload), []asynq.Option{asynq.MaxRetry(0)}},
	}
}

// seedQueues enqueues kinds(q) into each queue, in order, and stops at the first refusal.
func seedQueues(client *asynq.Client, queues []string, kinds func(q string) []seedKind) (seededJSON, error) {
	out := seededJSON{}
	for _, q := range queues {
		ids := map[string]string{}
		for _, k := range kinds(q) {
			info, err := client.Enqueue(k.task, append([]asynq.Option{asynq.Queue(q)}, k.opts...)...)
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", q, k.label, err)
			}
			ids[k.label] = info.ID
		}
		out[q] = ids
	}
	return out, nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item != "" {
			out = append(out, item)
		}
	}
	return out
}
