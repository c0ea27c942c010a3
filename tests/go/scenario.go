package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// scenario owns every long-lived asynq object so that teardown can release
// the blocked handler before shutting the server down (otherwise Shutdown
// would wait for its timeout and then requeue the task).
type scenario struct {
	opt     asynq.RedisClientOpt
	client  *asynq.Client
	insp    *asynq.Inspector
	srv     *asynq.Server
	sched   *asynq.Scheduler
	release chan struct{}

	blockID     string // the work:block task that must be active at READY
	tickEntry   string // scheduler entry ID of "@every 1s" cron:tick
	hourlyEntry string // scheduler entry ID of "@every 1h" cron:hourly
}

func runScenario(args []string) error {
	fs := flag.NewFlagSet("scenario", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	flush := fs.Bool("flush", false, "FLUSHDB the selected database first (fixed task IDs and unique locks need a clean db)")
	timeout := fs.Duration("timeout", 30*time.Second, "give up if the situations are not reached within this time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log.SetOutput(os.Stderr)
	log.SetPrefix("scenario: ")

	// Either stdin EOF or a signal ends the run; the TS side normally closes
	// stdin, and SIGTERM is the fallback when it kills us.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	sigCh := make(chan os.Signal, 1)
	signal.Notify(sigCh, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		select {
		case s := <-sigCh:
			log.Printf("got %v, shutting down", s)
			stop()
		case <-ctx.Done():
		}
	}()
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		log.Printf("stdin closed, shutting down")
		stop()
	}()

	s := &scenario{opt: rf.connOpt(), release: make(chan struct{})}
	defer s.close()

	if *flush {
		rc := redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db})
		err := rc.FlushDB(ctx).Err()
		rc.Close()
		if err != nil {
			return fmt.Errorf("flushdb: %w", err)
		}
	}

	buildCtx, cancelBuild := context.WithTimeout(ctx, *timeout)
	defer cancelBuild()
	if err := s.build(buildCtx); err != nil {
		if ctx.Err() != nil {
			return errors.New("aborted before READY")
		}
		return err
	}

	// os.Stdout is unbuffered in Go, so this line is flushed immediately.
	if _, err := fmt.Fprint(os.Stdout, "READY\n"); err != nil {
		return err
	}
	log.Printf("READY; waiting for stdin EOF or SIGTERM")
	<-ctx.Done()
	return nil
}

// build creates every situation, then polls the Inspector until each one is
// observable, so READY never depends on timing luck.
func (s *scenario) build(ctx context.Context) error {
	s.client = asynq.NewClient(s.opt)
	s.insp = asynq.NewInspector(s.opt)

	if err := s.enqueueFixtures(); err != nil {
		return err
	}
	if err := s.startServer(); err != nil {
		return err
	}
	if err := s.startScheduler(); err != nil {
		return err
	}
	return s.waitStable(ctx)
}

// close tears everything down in dependency order; safe on partial builds.
func (s *scenario) close() {
	close(s.release) // unblock work:block so the server can drain quickly
	if s.srv != nil {
		s.srv.Shutdown()
	}
	if s.sched != nil {
		s.sched.Shutdown()
	}
	if s.client != nil {
		_ = s.client.Close()
	}
	if s.insp != nil {
		_ = s.insp.Close()
	}
	log.Printf("shut down cleanly")
}
