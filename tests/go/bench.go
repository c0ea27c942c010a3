package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"sort"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// roundTripCounter counts network round trips as go-redis sees them: one per
// single command and one per (tx)pipeline flush.
type roundTripCounter struct{ n atomic.Int64 }

func (c *roundTripCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *roundTripCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmd)
	}
}

func (c *roundTripCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmds)
	}
}

type readResult struct {
	Name          string  `json:"name"`
	RoundTrips    int64   `json:"roundTrips"`
	RoundTripsMax int64   `json:"roundTripsMax"` // differs from roundTrips only if a read is not constant
	Iterations    int     `json:"iterations"`
	P50Ms         float64 `json:"p50Ms"`
	P95Ms         float64 `json:"p95Ms"`
}

func runBenchReads(args []string) error {
	fs := flag.NewFlagSet("bench-reads", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queue := fs.String("queue", "default", "queue to list")
	iterations := fs.Int("iterations", 50, "measured iterations per read")
	taskID := fs.String("task-id", "", "task ID in --queue for the taskInfo read")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *iterations < 1 || *taskID == "" {
		return errors.New("--iterations >= 1 and --task-id are required")
	}

	rc := redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db})
	defer rc.Close()
	counter := &roundTripCounter{}
	rc.AddHook(counter)
	// From v0.25 the Inspector does not own rc (we close it ourselves above).
	insp := inspectorOver(rc)

	q, id := *queue, *taskID
	reads := []struct {
		name string
		fn   func() error
	}{
		{"queues", func() error { // what a dashboard's queue list needs
			qs, err := insp.Queues()
			if err != nil {
				return err
			}
			for _, name := range qs {
				if _, err := insp.GetQueueInfo(name); err != nil {
					return err
				}
			}
			return nil
		}},
		{"page1", func() error { _, err := insp.ListPendingTasks(q, asynq.Page(1), asynq.PageSize(20)); return err }},
		{"page5000", func() error { _, err := insp.ListPendingTasks(q, asynq.Page(5000), asynq.PageSize(20)); return err }},
		{"taskInfo", func() error { _, err := insp.GetTaskInfo(q, id); return err }},
	}

	out := struct {
		Reads []readResult `json:"reads"`
	}{}
	for _, r := range reads {
		// Warm-up: dials the connection and loads scripts (EVALSHA -> NOSCRIPT
		// -> EVAL) so those one-off trips are not counted.
		if err := r.fn(); err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		res := readResult{Name: r.name, Iterations: *iterations}
		lat := make([]float64, 0, *iterations)
		for i := 0; i < *iterations; i++ {
			counter.n.Store(0)
			start := time.Now()
			if err := r.fn(); err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
			lat = append(lat, float64(time.Since(start).Nanoseconds())/1e6)
			n := counter.n.Load()
			if i == 0 {
				res.RoundTrips = n
			}
			res.RoundTripsMax = max(res.RoundTripsMax, n)
		}
		sort.Float64s(lat)
		res.P50Ms, res.P95Ms = percentile(lat, 50), percentile(lat, 95)
		out.Reads = append(out.Reads, res)
	}
	return writeJSON(out)
}

// percentile uses the nearest-rank method on sorted samples.
func percentile(sorted []float64, p float64) float64 {
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return math.Round(sorted[rank-1]*1000) / 1000
}
