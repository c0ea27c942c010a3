package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/hibiken/asynq"
)

// specList collects repeated --spec flags.
type specList []string

func (s *specList) String() string     { return strings.Join(*s, ", ") }
func (s *specList) Set(v string) error { *s = append(*s, v); return nil }

// runSchedule runs a real asynq.Scheduler with one entry per --spec (task --type on --queue),
// so the TypeScript Scheduler can be set beside it on the same Redis. It prints one JSON line
// {"<spec>": "<entry id>", ...}, then READY, and runs until --seconds pass, stdin closes or
// SIGTERM; then Shutdown, which clears its entries and their histories.
func runSchedule(args []string) error {
	fs := flag.NewFlagSet("schedule", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	var specs specList
	fs.Var(&specs, "spec", "cron spec to register (repeatable)")
	typ := fs.String("type", "cron:go", "task type of every entry")
	queue := fs.String("queue", "default", "queue of every entry")
	seconds := fs.Float64("seconds", 0, "run time; 0 = until stdin EOF or SIGTERM")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := schedulerOpts(time.Second)
	opts.LogLevel = asynq.WarnLevel
	sched := asynq.NewScheduler(rf.connOpt(), opts)
	ids := map[string]string{}
	for _, spec := range specs {
		id, err := sched.Register(spec, asynq.NewTask(*typ, nil), asynq.Queue(*queue))
		if err != nil {
			return fmt.Errorf("register %q: %w", spec, err)
		}
		ids[spec] = id
	}
	if err := sched.Start(); err != nil {
		return fmt.Errorf("scheduler start: %w", err)
	}
	if err := writeJSON(ids); err != nil {
		return err
	}
	fmt.Println("READY")
	waitForEnd(*seconds)
	sched.Shutdown()
	return nil
}
