package main

// serve runs a real asynq.Server with the handler set the worker interop tests
// mirror in TypeScript (tests/interop/worker/handlers.ts), so both servers can
// be given the same tasks and their Redis end states compared. It prints READY
// once started and runs until --seconds pass, stdin closes or SIGTERM.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

func runServe(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queues := fs.String("queues", "default:1", "comma-separated name:priority")
	strict := fs.Bool("strict", false, "StrictPriority")
	concurrency := fs.Int("concurrency", 4, "Concurrency")
	seconds := fs.Float64("seconds", 0, "run time; 0 = until stdin EOF or SIGTERM")
	retryDelay := fs.Int("retry-delay-seconds", 3600, "retry delay for every type except flaky:* (0 s)")
	checkMs := fs.Int("delayed-check-ms", 1000, "DelayedTaskCheckInterval in ms")
	record := fs.String("record-list", "", "list the count: handler RPUSHes go:<task id> to")
	shutdown := fs.Float64("shutdown-timeout-seconds", 1, "ShutdownTimeout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	qs, err := parseQueues(*queues)
	if err != nil {
		return err
	}
	rc := redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db})
	defer rc.Close()

	srv := asynq.NewServer(rf.connOpt(), asynq.Config{
		Concurrency:    *concurrency,
		Queues:         qs,
		StrictPriority: *strict,
		RetryDelayFunc: func(_ int, _ error, t *asynq.Task) time.Duration {
			if strings.HasPrefix(t.Type(), "flaky:") {
				return 0
			}
			return time.Duration(*retryDelay) * time.Second
		},
		DelayedTaskCheckInterval: time.Duration(*checkMs) * time.Millisecond,
		ShutdownTimeout:          time.Duration(*shutdown * float64(time.Second)),
		LogLevel:                 asynq.WarnLevel,
	})
	if err := srv.Start(serveMux(rc, *record)); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	fmt.Println("READY")
	waitForEnd(*seconds)
	srv.Shutdown()
	return nil
}

// waitForEnd blocks until the run time is over, stdin reaches EOF or a
// termination signal arrives.
func waitForEnd(seconds float64) {
	sigCh := make(chan os.Signal, 1)
	signal.Notify(sigCh, syscall.SIGTERM, syscall.SIGINT)
	eof := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(eof)
	}()
	var timeout <-chan time.Time
	if seconds > 0 {
		timeout = time.After(time.Duration(seconds * float64(time.Second)))
	}
	select {
	case <-timeout:
	case <-eof:
	case s := <-sigCh:
		log.Printf("serve: got %v", s)
	}
}

func parseQueues(spec string) (map[string]int, error) {
	qs := map[string]int{}
	for _, part := range strings.Split(spec, ",") {
		i := strings.LastIndex(part, ":")
		if i < 0 {
			return nil, fmt.Errorf("bad queue %q (want name:priority)", part)
		}
		p, err := strconv.Atoi(part[i+1:])
		if err != nil {
			return nil, fmt.Errorf("bad priority in %q: %w", part, err)
		}
		qs[part[:i]] = p
	}
	return qs, nil
}

func serveMux(rc *redis.Client, record string) *asynq.ServeMux {
	mux := asynq.NewServeMux()
	mux.HandleFunc("ok:", func(context.Context, *asynq.Task) error { return nil })
	mux.HandleFunc("result:", func(_ context.Context, t *asynq.Task) error {
		_, err := t.ResultWriter().Write(append([]byte("done:"), t.Payload()...))
		return err
	})
	mux.HandleFunc("fail:", func(_ context.Context, t *asynq.Task) error {
		return errors.New("fail: " + t.Type())
	})
	mux.HandleFunc("flaky:", func(_ context.Context, t *asynq.Task) error {
		return errors.New("flaky: " + t.Type())
	})
	mux.HandleFunc("slow:", func(ctx context.Context, _ *asynq.Task) error {
		<-ctx.Done()
		return ctx.Err()
	})
	mux.HandleFunc("skip:", func(context.Context, *asynq.Task) error {
		return fmt.Errorf("skip: %w", asynq.SkipRetry)
	})
	mux.HandleFunc("revoke:", func(context.Context, *asynq.Task) error { return revokeTask })
	mux.HandleFunc("count:", func(ctx context.Context, t *asynq.Task) error {
		id, _ := asynq.GetTaskID(ctx)
		return rc.RPush(ctx, record, "go:"+id).Err()
	})
	return mux
}
