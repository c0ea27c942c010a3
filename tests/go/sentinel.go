package main

// Redis Sentinel subcommands: the same Go client, Inspector and Server, connected
// with asynq.RedisFailoverClientOpt (the sentinels name the master on every
// connect), so the TS suite can show that what Go writes through the sentinels
// reads identically through asynqlens, before and after a failover, and that
// what asynqlens enqueues there is processed by a Go server.
//
//	sentinel-seed     enqueue a fixed set of tasks into each --queues queue, print their IDs
//	sentinel-dump     the `dump` document, read by the Inspector through the sentinels
//	sentinel-process  run an asynq.Server until it has run --invocations handlers and the queues are idle

import (
	"context"
	"flag"
	"fmt"
	"log"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
)

type sentinelFlags struct {
	sentinels string
	master    string
	db        int
	queues    string
}

func addSentinelFlags(fs *flag.FlagSet) *sentinelFlags {
	s := &sentinelFlags{}
	fs.StringVar(&s.sentinels, "sentinels", "", "comma-separated HOST:PORT of the sentinels")
	fs.StringVar(&s.master, "master", "", "master name, as in `sentinel monitor <name> ...`")
	fs.IntVar(&s.db, "db", 0, "Redis database number")
	fs.StringVar(&s.queues, "queues", "default", "comma-separated queue names")
	return s
}

func (s *sentinelFlags) connOpt() asynq.RedisFailoverClientOpt {
	return asynq.RedisFailoverClientOpt{MasterName: s.master, SentinelAddrs: strings.Split(s.sentinels, ","), DB: s.db}
}

func (s *sentinelFlags) queueList() []string { return splitList(s.queues) }

// runSentinelSeed enqueues, per queue, one task of each kind the console shows:
// pending (with a header), scheduled, unique, grouped, and three pending tasks
// whose outcome under sentinel-process is known: archived (fails, no retries),
// retry (fails, retries left) and completed (writes a result, kept an hour).
// --round goes into every payload, so a later round is not refused as a
// duplicate of this round's unique task.
func runSentinelSeed(args []string) error {
	fs := flag.NewFlagSet("sentinel-seed", flag.ContinueOnError)
	sf := addSentinelFlags(fs)
	round := fs.String("round", "1", "tag written into every payload")
	if err := fs.Parse(args); err != nil {
		return err
	}
	client := asynq.NewClient(sf.connOpt())
	defer client.Close()
	out, err := seedQueues(client, sf.queueList(), func(q string) []seedKind {
		payload := []byte(fmt.Sprintf(`{"queue":%q,"round":%q}`, q, *round))
		return append(baseSeedKinds(payload),
			seedKind{"retrying", asynq.NewTask("fail:go", payload), []asynq.Option{asynq.MaxRetry(2)}},
			seedKind{"kept", asynq.NewTask("result:go", payload), []asynq.Option{asynq.Retention(time.Hour)}},
		)
	})
	if err != nil {
		return err
	}
	return writeJSON(out)
}

func runSentinelDump(args []string) error {
	fs := flag.NewFlagSet("sentinel-dump", flag.ContinueOnError)
	sf := addSentinelFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	insp := asynq.NewInspector(sf.connOpt())
	defer insp.Close()
	return dumpInspector(insp)
}

// runSentinelProcess stops on a condition, not a clock: once the handlers ran
// --invocations times and every queue has nothing pending, active or
// aggregating. The count matters because an aggregation empties its group a
// moment before it enqueues the aggregated task; the idle check matters because
// a task stays active until asynq has written its outcome.
func runSentinelProcess(args []string) error {
	fs := flag.NewFlagSet("sentinel-process", flag.ContinueOnError)
	sf := addSentinelFlags(fs)
	want := fs.Int64("invocations", 0, "handler runs to wait for")
	seconds := fs.Float64("seconds", 20, "give up (exit 1) after this long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	qs := map[string]int{}
	for _, q := range sf.queueList() {
		qs[q] = 1
	}
	srv := asynq.NewServer(sf.connOpt(), asynq.Config{
		Concurrency: 4,
		Queues:      qs,
		// A task with retries left stays in the retry state for the rest of the run.
		RetryDelayFunc:   func(int, error, *asynq.Task) time.Duration { return time.Hour },
		GroupAggregator:  asynq.GroupAggregatorFunc(aggregateGroup),
		GroupGracePeriod: time.Second,
		ShutdownTimeout:  time.Second,
	})
	var ran atomic.Int64
	mux := processMux()
	mux.Use(func(next asynq.Handler) asynq.Handler {
		return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
			ran.Add(1)
			return next.ProcessTask(ctx, t)
		})
	})
	if err := srv.Start(mux); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	defer srv.Shutdown()
	insp := asynq.NewInspector(sf.connOpt())
	defer insp.Close()
	deadline := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
	for {
		busy, err := busyQueues(insp, sf.queueList())
		if err != nil {
			log.Printf("sentinel-process: %v", err) // a failover in progress; ask again
		} else if busy == "" && ran.Load() >= *want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %gs: %d of %d invocations, still busy: %s (last error: %v)", *seconds, ran.Load(), *want, busy, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// busyQueues names the queues that still have pending, active or aggregating
// tasks ("" when none). One GetQueueInfo per queue.
func busyQueues(insp *asynq.Inspector, queues []string) (string, error) {
	var busy []string
	for _, q := range queues {
		qi, err := insp.GetQueueInfo(q)
		if err != nil {
			return "?", fmt.Errorf("GetQueueInfo %s: %w", q, err)
		}
		if qi.Pending+qi.Active+qi.Aggregating > 0 {
			busy = append(busy, fmt.Sprintf("%s(pending %d, active %d, aggregating %d)", q, qi.Pending, qi.Active, qi.Aggregating))
		}
	}
	return strings.Join(busy, ", "), nil
}
