package main

// process-retry runs a real asynq.Server like `process`, with the same handlers,
// but a failed task waits --retry-delay-seconds (default one hour) before its
// next attempt. So after a short run every failing task with retries left sits
// in the retry state with retried = 1, its error and failure time set: a
// deterministic retry fixture (with `process`'s 1 s delay a task may be
// pending, active or retry when the run ends).

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hibiken/asynq"
)

func runProcessRetry(args []string) error {
	fs := flag.NewFlagSet("process-retry", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queues := fs.String("queues", "default", "comma-separated queues, each with priority 1")
	seconds := fs.Float64("seconds", 2, "how long to run the server")
	delay := fs.Float64("retry-delay-seconds", 3600, "delay before a failed task's next attempt")
	if err := fs.Parse(args); err != nil {
		return err
	}
	qs := map[string]int{}
	for _, q := range strings.Split(*queues, ",") {
		if q != "" {
			qs[q] = 1
		}
	}
	secs := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	srv := asynq.NewServer(rf.connOpt(), asynq.Config{
		Concurrency:     4,
		Queues:          qs,
		RetryDelayFunc:  func(int, error, *asynq.Task) time.Duration { return secs(*delay) },
		ShutdownTimeout: time.Second,
	})
	if err := srv.Start(processMux()); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	sigCh := make(chan os.Signal, 1)
	signal.Notify(sigCh, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-time.After(secs(*seconds)):
	case <-sigCh:
	}
	srv.Shutdown()
	return nil
}
