package main

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

type raceResult struct {
	OK         int      `json:"ok"`
	Duplicate  int      `json:"duplicate"`
	IDConflict int      `json:"idConflict"`
	Other      []string `json:"other"`
}

func runEnqueueRace(args []string) error {
	fs := flag.NewFlagSet("enqueue-race", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	count := fs.Int("count", 10, "number of concurrent Enqueue calls")
	queue := fs.String("queue", "default", "queue name")
	typ := fs.String("type", "", "task type")
	payloadB64 := fs.String("payload-base64", "", "task payload, base64")
	uniqueSec := fs.Int64("unique-seconds", 0, "asynq.Unique TTL in seconds (0 = not unique)")
	taskID := fs.String("task-id", "", "asynq.TaskID (empty = random IDs)")
	startAt := fs.Int64("start-at-unix-ms", 0, "wall-clock start time, Unix ms (0 = now)")
	perG := fs.Bool("client-per-goroutine", false, "one asynq.Client (own connection) per goroutine instead of one shared client")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *count < 1 || *typ == "" {
		return errors.New("--count >= 1 and --type are required")
	}
	payload, err := base64.StdEncoding.DecodeString(*payloadB64)
	if err != nil {
		return fmt.Errorf("bad --payload-base64: %w", err)
	}
	opts := []asynq.Option{asynq.Queue(*queue)}
	if *uniqueSec > 0 {
		opts = append(opts, asynq.Unique(time.Duration(*uniqueSec)*time.Second))
	}
	if *taskID != "" {
		opts = append(opts, asynq.TaskID(*taskID))
	}

	clients, closeAll, err := raceClients(rf, *count, *perG)
	if err != nil {
		return err
	}
	defer closeAll()

	// Every goroutine is parked on `start` before the deadline so the calls
	// leave as close together as the scheduler allows.
	start := make(chan struct{})
	errs := make([]error, *count)
	var wg sync.WaitGroup
	for i := 0; i < *count; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			_, errs[i] = clients[i].Enqueue(asynq.NewTask(*typ, payload), opts...)
		}(i)
	}
	if *startAt > 0 {
		time.Sleep(time.Until(time.UnixMilli(*startAt)))
	}
	close(start)
	wg.Wait()

	res := raceResult{Other: []string{}}
	for _, e := range errs {
		switch {
		case e == nil:
			res.OK++
		case errors.Is(e, asynq.ErrDuplicateTask):
			res.Duplicate++
		case errors.Is(e, asynq.ErrTaskIDConflict):
			res.IDConflict++
		default:
			res.Other = append(res.Other, e.Error())
		}
	}
	sort.Strings(res.Other) // goroutine finish order is meaningless
	return writeJSON(res)
}

// raceClients returns one client per goroutine slot (all the same one when
// shared). Connections are dialled and pinged up front so that connection
// setup does not spread the calls out after the start signal.
func raceClients(rf *redisFlags, n int, perGoroutine bool) ([]*asynq.Client, func(), error) {
	var rcs []*redis.Client
	if perGoroutine {
		for i := 0; i < n; i++ {
			rcs = append(rcs, redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db, PoolSize: 1}))
		}
	} else {
		rcs = []*redis.Client{redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db, PoolSize: max(n, 10)})}
	}
	closeAll := func() {
		for _, rc := range rcs {
			_ = rc.Close()
		}
	}
	// n concurrent pings make the shared pool open up to n connections.
	var wg sync.WaitGroup
	pingErrs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			pingErrs[i] = rcs[i%len(rcs)].Ping(context.Background()).Err()
		}(i)
	}
	wg.Wait()
	if err := errors.Join(pingErrs...); err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("ping: %w", err)
	}
	clients := make([]*asynq.Client, n)
	for i := range clients {
		// The clients are never closed: closeAll closes each rc once.
		clients[i] = clientOver(rcs[i%len(rcs)])
	}
	return clients, closeAll, nil
}
