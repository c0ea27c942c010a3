package main

// Subcommands for the handler-not-found triage interop suite
// (tests/interop/triage):
//
//	triage-serve   a real asynq.Server whose mux registers exactly the patterns
//	               given with --handle (each handler succeeds), so one run can
//	               lack a type and a later run can have it (one worker group of
//	               a fleet, or an older release of it). With --aggregate-into T
//	               it runs a group aggregator turning each group into one task
//	               of type T (--group-max-size, --group-grace-seconds). Prints READY, then
//	               one JSON line per task handed to the mux; runs until stdin
//	               EOF or SIGTERM.
//	routing-match  reads a JSON array of { patterns, taskTypes } on stdin,
//	               registers each case's patterns on a fresh asynq.ServeMux and
//	               prints, per case, the pattern ServeMux.Handler returns for
//	               each type ("" for none) or the registration panic's text.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"
)

// patternList is a repeatable flag: patterns may contain commas.
type patternList []string

func (p *patternList) String() string     { return strings.Join(*p, ",") }
func (p *patternList) Set(v string) error { *p = append(*p, v); return nil }

type triageInvocation struct {
	ID      string `json:"id"`
	Queue   string `json:"queue"`
	Type    string `json:"type"`
	Pattern string `json:"pattern"`
}

func runTriageServe(args []string) error {
	fs := flag.NewFlagSet("triage-serve", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queues := fs.String("queues", "default:1", "comma-separated name:priority")
	retryDelay := fs.Int("retry-delay-seconds", 3600, "delay before every retry")
	checkMs := fs.Int("delayed-check-ms", 200, "DelayedTaskCheckInterval in ms")
	aggregateInto := fs.String("aggregate-into", "", "run a group aggregator emitting one task of this type per group")
	maxSize := fs.Int("group-max-size", 0, "GroupMaxSize (0: no limit)")
	grace := fs.Float64("group-grace-seconds", 1, "GroupGracePeriod in seconds (asynq minimum 1)")
	var handle patternList
	fs.Var(&handle, "handle", "a pattern to register with a succeeding handler (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	qs, err := parseQueues(*queues)
	if err != nil {
		return err
	}
	cfg := asynq.Config{
		Concurrency: 4,
		Queues:      qs,
		RetryDelayFunc: func(int, error, *asynq.Task) time.Duration {
			return time.Duration(*retryDelay) * time.Second
		},
		DelayedTaskCheckInterval: time.Duration(*checkMs) * time.Millisecond,
		ShutdownTimeout:          time.Second,
		LogLevel:                 asynq.ErrorLevel,
	}
	if *aggregateInto != "" {
		into := *aggregateInto
		cfg.GroupAggregator = asynq.GroupAggregatorFunc(func(group string, tasks []*asynq.Task) *asynq.Task {
			return asynq.NewTask(into, []byte(fmt.Sprintf("%s:%d", group, len(tasks))), asynq.Retention(time.Hour))
		})
		cfg.GroupMaxSize = *maxSize
		cfg.GroupGracePeriod = time.Duration(*grace * float64(time.Second))
	}
	srv := asynq.NewServer(rf.connOpt(), cfg)
	mux := asynq.NewServeMux()
	var mu sync.Mutex
	for _, p := range handle {
		pattern := p
		mux.HandleFunc(pattern, func(ctx context.Context, t *asynq.Task) error {
			rec := triageInvocation{Type: t.Type(), Pattern: pattern}
			rec.ID, _ = asynq.GetTaskID(ctx)
			rec.Queue, _ = asynq.GetQueueName(ctx)
			mu.Lock()
			defer mu.Unlock()
			if err := writeJSON(rec); err != nil {
				log.Printf("triage-serve: write record: %v", err)
			}
			return nil
		})
	}
	if err := srv.Start(mux); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	fmt.Println("READY")
	waitForEnd(0)
	srv.Shutdown()
	return nil
}

type routingCase struct {
	Patterns  []string `json:"patterns"`
	TaskTypes []string `json:"taskTypes"`
}

type routingAnswer struct {
	// Error is the panic text of the first registration that failed.
	Error  *string  `json:"error"`
	Routes []string `json:"routes"`
}

func register(mux *asynq.ServeMux, pattern string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	mux.HandleFunc(pattern, func(context.Context, *asynq.Task) error { return nil })
	return nil
}

func runRoutingMatch(args []string) error {
	fs := flag.NewFlagSet("routing-match", flag.ContinueOnError)
	addRedisFlags(fs) // accepted for a uniform command line; no Redis is used
	if err := fs.Parse(args); err != nil {
		return err
	}
	var cases []routingCase
	dec := json.NewDecoder(os.Stdin)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cases); err != nil {
		return fmt.Errorf("bad request JSON: %w", err)
	}
	out := make([]routingAnswer, len(cases))
	for i, c := range cases {
		mux := asynq.NewServeMux()
		out[i].Routes = []string{}
		var failed error
		for _, p := range c.Patterns {
			if failed = register(mux, p); failed != nil {
				msg := failed.Error()
				out[i].Error = &msg
				break
			}
		}
		if failed != nil {
			continue
		}
		for _, t := range c.TaskTypes {
			_, pattern := mux.Handler(asynq.NewTask(t, nil))
			out[i].Routes = append(out[i].Routes, pattern)
		}
	}
	return writeJSON(out)
}
