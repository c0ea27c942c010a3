package main

// The throughput benchmark's Go side (bench/throughput-case.ts runs the same
// measurements against our TypeScript server and client, on the same Redis):
//
//	bench-process  a real asynq.Server with a no-op handler drains --count
//	               pending tasks of --queue (seeded beforehand); prints the rate
//	bench-enqueue  asynq.Client.Enqueue of --count tasks, --concurrency in flight
//
// Both count Redis round trips with the bench-reads hook (one per command, one
// per pipeline) on the connection asynq uses, and print one JSON line.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// throughputResult is what both subcommands print: the rate over the timed
// part of the run (after --warmup untimed tasks) and its round trips.
type throughputResult struct {
	Tasks      int     `json:"tasks"`
	ElapsedMs  float64 `json:"elapsedMs"`
	PerSecond  float64 `json:"perSecond"`
	RoundTrips int64   `json:"roundTrips"`
}

func result(tasks int, elapsed time.Duration, trips int64) throughputResult {
	ms := float64(elapsed.Nanoseconds()) / 1e6
	return throughputResult{Tasks: tasks, ElapsedMs: ms, PerSecond: float64(tasks) / (ms / 1000), RoundTrips: trips}
}

// countedClient is a go-redis client whose round trips are counted.
func countedClient(rf *redisFlags) (*redis.Client, *roundTripCounter) {
	rc := redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db})
	counter := &roundTripCounter{}
	rc.AddHook(counter)
	return rc, counter
}

func runBenchProcess(args []string) error {
	fs := flag.NewFlagSet("bench-process", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queue := fs.String("queue", "default", "the queue holding the seeded pending tasks")
	concurrency := fs.Int("concurrency", 10, "Config.Concurrency")
	count := fs.Int("count", 0, "pending tasks seeded in --queue, all processed")
	warmup := fs.Int("warmup", 0, "tasks handled before the clock starts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *count < 1 || *warmup < 0 || *warmup >= *count || *concurrency < 1 {
		return errors.New("need --count >= 1, 0 <= --warmup < --count, --concurrency >= 1")
	}
	rc, counter := countedClient(rf)
	defer rc.Close()
	// The processed counter is polled on a connection of its own, not counted.
	poll := redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db})
	defer poll.Close()

	// The rate is the handler's: the clock runs from the warmup-th call to the
	// last one. With at most --concurrency tasks in flight, tasks cannot be
	// taken faster than they are finished, so in steady state this is the
	// processing rate; the completion of every task is checked afterwards.
	var handled atomic.Int64
	var mu sync.Mutex // orders the stamps' writes (in handlers) before their read
	var t0, t1 time.Time
	var trips0, trips1 int64
	done := make(chan struct{})
	mux := asynq.NewServeMux()
	mux.HandleFunc("bench:email", func(context.Context, *asynq.Task) error {
		switch handled.Add(1) {
		case int64(*warmup):
			mu.Lock()
			t0, trips0 = time.Now(), counter.n.Load()
			mu.Unlock()
		case int64(*count):
			mu.Lock()
			t1, trips1 = time.Now(), counter.n.Load()
			mu.Unlock()
			close(done)
		}
		return nil
	})
	srv := serverOver(rc, asynq.Config{
		Concurrency:     *concurrency,
		Queues:          map[string]int{*queue: 1},
		LogLevel:        asynq.WarnLevel,
		ShutdownTimeout: 5 * time.Second,
	})
	if *warmup == 0 {
		t0 = time.Now()
	}
	if err := srv.Start(mux); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		srv.Shutdown()
		return fmt.Errorf("only %d of %d tasks handled in 5 minutes", handled.Load(), *count)
	}
	if err := waitProcessed(poll, *queue, *count); err != nil {
		srv.Shutdown()
		return err
	}
	srv.Shutdown()
	mu.Lock()
	defer mu.Unlock()
	return writeJSON(result(*count-*warmup, t1.Sub(t0), trips1-trips0))
}

// waitProcessed waits until asynq's all-time processed counter of the queue
// reaches want: every handled task has been written back as done.
func waitProcessed(rc *redis.Client, queue string, want int) error {
	key := "asynq:{" + queue + "}:processed"
	end := time.Now().Add(30 * time.Second)
	for {
		n, err := rc.Get(context.Background(), key).Int()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if n >= want {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("%s is %d, want %d", key, n, want)
		}
		time.Sleep(time.Millisecond)
	}
}

func runBenchEnqueue(args []string) error {
	fs := flag.NewFlagSet("bench-enqueue", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queue := fs.String("queue", "default", "the queue to enqueue to")
	concurrency := fs.Int("concurrency", 1, "enqueues in flight")
	count := fs.Int("count", 0, "timed enqueues")
	warmup := fs.Int("warmup", 0, "untimed enqueues before them")
	payloadBytes := fs.Int("payload-bytes", 128, "payload size")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *count < 1 || *warmup < 0 || *concurrency < 1 || *payloadBytes < 0 {
		return errors.New("need --count >= 1, --warmup >= 0, --concurrency >= 1, --payload-bytes >= 0")
	}
	rc, counter := countedClient(rf)
	defer rc.Close()
	client := clientOver(rc)
	payload := make([]byte, *payloadBytes)
	for i := range payload {
		payload[i] = 'a' + byte(i%26)
	}
	task := asynq.NewTask("bench:enqueue", payload)
	enqueueAll := func(n int) error {
		var next atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, *concurrency)
		for w := 0; w < *concurrency; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= int64(n) {
					if _, err := client.Enqueue(task, asynq.Queue(*queue)); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		return <-errs
	}
	if err := enqueueAll(*warmup); err != nil {
		return err
	}
	trips0 := counter.n.Load()
	t0 := time.Now()
	if err := enqueueAll(*count); err != nil {
		return err
	}
	elapsed := time.Since(t0)
	return writeJSON(result(*count, elapsed, counter.n.Load()-trips0))
}
