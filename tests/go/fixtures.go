package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// Queue names are part of the contract with the TS tests: keep them exact.
const (
	qDefault = "default"
	qWork    = "work:main"    // colon inside the hash tag
	qAgg     = "agg"          // grouped tasks that must stay aggregating
	qSpace   = "low priority" // space in the name
	qUnicode = "очередь-日本"   // non-ASCII name
	qCron    = "cron"         // fed by the scheduler, unstable by design
)

// fixture is one Client.Enqueue call.
type fixture struct {
	task *asynq.Task
	opts []asynq.Option
}

func newFixture(typ string, payload []byte, opts ...asynq.Option) fixture {
	return fixture{task: asynq.NewTask(typ, payload), opts: opts}
}

func (s *scenario) enqueueFixtures() error {
	in := func(q string) asynq.Option { return asynq.Queue(q) }
	fx := []fixture{
		// default: nobody serves it, so everything stays pending/scheduled.
		newFixture("email:welcome", []byte(`{"user":1}`), in(qDefault)),
		newFixture("email:welcome", []byte(`{"user":2}`), in(qDefault)),
		newFixture("email:welcome", []byte(`{"user":3}`), in(qDefault)),
		newFixture("email:unique", []byte(`{"user":42}`), in(qDefault), asynq.Unique(time.Hour)),
		newFixture("report:daily", []byte(`{"report":"daily"}`), in(qDefault), asynq.TaskID("fixed-id-1")),
		// Before v0.26 this task has no headers (asynq_pre026.go).
		{task: newTaskWithHeaders("email:headers", []byte(`{"user":7}`),
			map[string]string{"tenant": "acme", "trace-id": "abc123"}), opts: []asynq.Option{in(qDefault)}},
		newFixture("blob:binary", []byte{0xff, 0xfe, 0x00, 0x01, 0x80}, in(qDefault)),
		newFixture("blob:empty", []byte{}, in(qDefault)),
		newFixture("blob:nil", nil, in(qDefault)),
		newFixture("email:later", []byte(`{"n":1}`), in(qDefault), asynq.ProcessIn(time.Hour)),
		newFixture("email:later", []byte(`{"n":2}`), in(qDefault), asynq.ProcessIn(2*time.Hour)),
		newFixture("email:later-unique", []byte(`{"n":3}`), in(qDefault), asynq.Unique(time.Hour), asynq.ProcessIn(time.Hour)),

		// work:main: processed by our server; work:block goes first so it is
		// the task a worker holds at READY.
		newFixture("work:block", []byte(`{"hold":true}`), in(qWork)),
		newFixture("work:fail", []byte(`{"ends":"retry"}`), in(qWork), asynq.MaxRetry(5)),
		newFixture("work:fail", []byte(`{"ends":"archived"}`), in(qWork), asynq.MaxRetry(0)),
		newFixture("work:unknown", []byte(`{"ends":"archived"}`), in(qWork), asynq.MaxRetry(0)),
		newFixture("work:ok", []byte(`{"n":1}`), in(qWork)),
		newFixture("work:ok", []byte(`{"n":2}`), in(qWork)),
		newFixture("work:ok", []byte(`{"n":3}`), in(qWork)),
		newFixture("work:result", []byte(`{"n":4}`), in(qWork), asynq.Retention(time.Hour)),

		// agg: grace period of 1h on the server keeps these aggregating.
		newFixture("agg:item", []byte(`{"i":1}`), in(qAgg), asynq.Group("g1")),
		newFixture("agg:item", []byte(`{"i":2}`), in(qAgg), asynq.Group("g1")),
		newFixture("agg:item", []byte(`{"i":3}`), in(qAgg), asynq.Group("g1")),
		newFixture("agg:item", []byte(`{"i":4}`), in(qAgg), asynq.Group("g2")),
		newFixture("agg:item", []byte(`{"i":5}`), in(qAgg), asynq.Group("g2")),

		newFixture("misc:space", []byte(`{"q":"space"}`), in(qSpace)),
		newFixture("misc:unicode", []byte(`{"q":"unicode"}`), in(qUnicode)),
	}
	for _, f := range fx {
		info, err := s.client.Enqueue(f.task, f.opts...)
		if err != nil {
			return fmt.Errorf("enqueue %s: %w", f.task.Type(), err)
		}
		if f.task.Type() == "work:block" {
			s.blockID = info.ID
		}
	}
	return nil
}

func (s *scenario) startServer() error {
	mux := asynq.NewServeMux()
	mux.HandleFunc("work:block", func(ctx context.Context, _ *asynq.Task) error {
		select {
		case <-s.release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	mux.HandleFunc("work:fail", func(context.Context, *asynq.Task) error {
		return errors.New("boom: something failed")
	})
	mux.HandleFunc("work:ok", func(context.Context, *asynq.Task) error { return nil })
	mux.HandleFunc("work:result", func(_ context.Context, t *asynq.Task) error {
		_, err := t.ResultWriter().Write([]byte("result-bytes-\x00\xff"))
		return err
	})
	// Only reachable if aggregation fires, which the 1h grace period prevents
	// while the scenario runs; registered so a stray batch would not fail.
	mux.HandleFunc("agg:batch", func(context.Context, *asynq.Task) error { return nil })
	// work:unknown is deliberately NOT registered (not-found archive path).

	s.srv = asynq.NewServer(s.opt, asynq.Config{
		Concurrency: 4,
		Queues:      map[string]int{qWork: 1, qAgg: 1},
		// 1h keeps the retry task out of reach of the forwarder until teardown.
		RetryDelayFunc: func(int, error, *asynq.Task) time.Duration { return time.Hour },
		GroupAggregator: asynq.GroupAggregatorFunc(func(group string, tasks []*asynq.Task) *asynq.Task {
			parts := make([][]byte, len(tasks))
			for i, t := range tasks {
				parts[i] = t.Payload()
			}
			return asynq.NewTask("agg:batch", bytes.Join(parts, []byte("\n")))
		}),
		GroupGracePeriod: time.Hour,
		GroupMaxDelay:    0, // no max-delay trigger
		GroupMaxSize:     0, // no size trigger
		ShutdownTimeout:  5 * time.Second,
	})
	return s.srv.Start(mux)
}

func (s *scenario) startScheduler() error {
	// The first heartbeat is only written after one interval, so 1s keeps READY
	// fast (v0.24 has no HeartbeatInterval and beats every 5 s).
	s.sched = asynq.NewScheduler(s.opt, schedulerOpts(time.Second))
	var err error
	s.tickEntry, err = s.sched.Register("@every 1s", asynq.NewTask("cron:tick", nil),
		asynq.Queue(qCron), asynq.MaxRetry(3))
	if err != nil {
		return fmt.Errorf("register cron:tick: %w", err)
	}
	s.hourlyEntry, err = s.sched.Register("@every 1h", asynq.NewTask("cron:hourly", []byte(`{"x":1}`)),
		asynq.Queue(qCron))
	if err != nil {
		return fmt.Errorf("register cron:hourly: %w", err)
	}
	return s.sched.Start()
}
