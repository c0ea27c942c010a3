package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hibiken/asynq"
)

// invocationJSON is printed (one line each) every time asynq hands a task to
// the mux, including tasks that then hit asynq's not-found handler.
type invocationJSON struct {
	ID               string            `json:"id"`
	Queue            string            `json:"queue"`
	Type             string            `json:"type"`
	PayloadBase64    string            `json:"payloadBase64"`
	Headers          map[string]string `json:"headers"`
	RetryCount       int               `json:"retryCount"`
	MaxRetry         int               `json:"maxRetry"`
	DeadlineUnix     int64             `json:"deadlineUnix"`
	HasDeadline      bool              `json:"hasDeadline"`
	ReceivedAtUnixMs int64             `json:"receivedAtUnixMs"`
}

func runProcess(args []string) error {
	fs := flag.NewFlagSet("process", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queues := fs.String("queues", "default", "comma-separated queues, each with priority 1")
	seconds := fs.Float64("seconds", 5, "how long to run the server")
	maxSize := fs.Int("group-max-size", 0, "GroupMaxSize (0 = no size trigger)")
	grace := fs.Float64("group-grace-seconds", 1, "GroupGracePeriod in seconds (asynq minimum 1)")
	shutdown := fs.Float64("shutdown-timeout-seconds", 1, "ShutdownTimeout; still-running tasks are requeued after it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	qs := map[string]int{}
	for _, q := range strings.Split(*queues, ",") {
		if q != "" { // no trimming: queue names may contain spaces
			qs[q] = 1
		}
	}
	secs := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

	srv := asynq.NewServer(rf.connOpt(), asynq.Config{
		Concurrency:    4,
		Queues:         qs,
		RetryDelayFunc: func(int, error, *asynq.Task) time.Duration { return time.Second },
		// The forwarder's 5 s default would hide the 1 s retry delay.
		DelayedTaskCheckInterval: time.Second,
		GroupAggregator:          asynq.GroupAggregatorFunc(aggregateGroup),
		GroupGracePeriod:         secs(*grace),
		GroupMaxSize:             *maxSize,
		GroupMaxDelay:            0,
		ShutdownTimeout:          secs(*shutdown),
	})
	if err := srv.Start(processMux()); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	// SIGTERM ends the run early but still through a clean Shutdown.
	sigCh := make(chan os.Signal, 1)
	signal.Notify(sigCh, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-time.After(secs(*seconds)):
	case s := <-sigCh:
		log.Printf("process: got %v, shutting down early", s)
	}
	srv.Shutdown()
	return nil
}

// aggregateGroup: payload = JSON array of member payloads as strings (bytes
// that are not valid UTF-8 get JSON's U+FFFD replacement).
func aggregateGroup(_ string, tasks []*asynq.Task) *asynq.Task {
	parts := make([]string, len(tasks))
	for i, t := range tasks {
		parts[i] = string(t.Payload())
	}
	b, _ := json.Marshal(parts) // []string cannot fail to marshal
	return asynq.NewTask("aggregated", b)
}

func processMux() *asynq.ServeMux {
	mux := asynq.NewServeMux()
	// Middleware also wraps asynq's not-found handler, so unknown types are
	// recorded too, while still getting asynq's own not-found error.
	mux.Use(recordInvocation)
	mux.HandleFunc("ok:", func(context.Context, *asynq.Task) error { return nil })
	mux.HandleFunc("result:", func(_ context.Context, t *asynq.Task) error {
		_, err := t.ResultWriter().Write(append([]byte("done:"), t.Payload()...))
		return err
	})
	mux.HandleFunc("fail:", func(_ context.Context, t *asynq.Task) error {
		return errors.New("fail: " + t.Type())
	})
	mux.HandleFunc("slow:", func(ctx context.Context, _ *asynq.Task) error {
		<-ctx.Done()
		return ctx.Err()
	})
	// ServeMux matches plain prefixes, so "aggregatedX" would land here too;
	// hand those to asynq's not-found handler to keep "anything else" exact.
	mux.HandleFunc("aggregated", func(ctx context.Context, t *asynq.Task) error {
		if t.Type() != "aggregated" {
			return asynq.NotFound(ctx, t)
		}
		return nil
	})
	return mux
}

var stdoutMu sync.Mutex // workers run concurrently; keep each JSON line whole

func recordInvocation(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		rec := invocationJSON{
			Type:             t.Type(),
			PayloadBase64:    base64.StdEncoding.EncodeToString(t.Payload()),
			Headers:          taskHeaders(t),
			ReceivedAtUnixMs: time.Now().UnixMilli(),
		}
		rec.ID, _ = asynq.GetTaskID(ctx)
		rec.Queue, _ = asynq.GetQueueName(ctx)
		rec.RetryCount, _ = asynq.GetRetryCount(ctx)
		rec.MaxRetry, _ = asynq.GetMaxRetry(ctx)
		if d, ok := ctx.Deadline(); ok {
			rec.DeadlineUnix, rec.HasDeadline = d.Unix(), true
		}
		stdoutMu.Lock()
		err := writeJSON(rec)
		stdoutMu.Unlock()
		if err != nil {
			log.Printf("process: write record: %v", err)
		}
		return next.ProcessTask(ctx, t)
	})
}
