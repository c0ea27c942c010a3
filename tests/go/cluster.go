package main

// Redis Cluster subcommands: the same Go client, Inspector and Server, connected
// with asynq.RedisClusterClientOpt, so the TS suite can show that what Go writes
// on a cluster reads identically through asynqlens and that what asynqlens
// enqueues there is processed by a Go server.
//
//	cluster-seed     enqueue a fixed set of tasks into each --queues queue, print their IDs
//	cluster-dump     the `dump` document, read by the Inspector over the cluster
//	cluster-process  run an asynq.Server over the cluster (same handlers as `process`)

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hibiken/asynq"
)

type clusterFlags struct {
	nodes  string
	queues string
}

func addClusterFlags(fs *flag.FlagSet) *clusterFlags {
	c := &clusterFlags{}
	fs.StringVar(&c.nodes, "nodes", "", "comma-separated HOST:PORT seeds of the cluster")
	fs.StringVar(&c.queues, "queues", "default", "comma-separated queue names")
	return c
}

func (c *clusterFlags) connOpt() asynq.RedisClusterClientOpt {
	return asynq.RedisClusterClientOpt{Addrs: strings.Split(c.nodes, ",")}
}

func (c *clusterFlags) queueList() []string { return splitList(c.queues) }

// runClusterSeed enqueues, per queue: a pending task, a scheduled one, a unique
// one, a grouped one, and a pending task that will fail for good when processed.
func runClusterSeed(args []string) error {
	fs := flag.NewFlagSet("cluster-seed", flag.ContinueOnError)
	cf := addClusterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	client := asynq.NewClient(cf.connOpt())
	defer client.Close()
	out, err := seedQueues(client, cf.queueList(), func(q string) []seedKind {
		return baseSeedKinds([]byte(fmt.Sprintf(`{"queue":%q}`, q)))
	})
	if err != nil {
		return err
	}
	return writeJSON(out)
}

func runClusterDump(args []string) error {
	fs := flag.NewFlagSet("cluster-dump", flag.ContinueOnError)
	cf := addClusterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	insp := asynq.NewInspector(cf.connOpt())
	defer insp.Close()
	return dumpInspector(insp)
}

func runClusterProcess(args []string) error {
	fs := flag.NewFlagSet("cluster-process", flag.ContinueOnError)
	cf := addClusterFlags(fs)
	seconds := fs.Float64("seconds", 5, "how long to run the server")
	if err := fs.Parse(args); err != nil {
		return err
	}
	qs := map[string]int{}
	for _, q := range cf.queueList() {
		qs[q] = 1
	}
	srv := asynq.NewServer(cf.connOpt(), asynq.Config{
		Concurrency:              4,
		Queues:                   qs,
		RetryDelayFunc:           func(int, error, *asynq.Task) time.Duration { return time.Second },
		DelayedTaskCheckInterval: time.Second,
		GroupAggregator:          asynq.GroupAggregatorFunc(aggregateGroup),
		GroupGracePeriod:         time.Second,
		ShutdownTimeout:          time.Second,
	})
	if err := srv.Start(processMux()); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	sigCh := make(chan os.Signal, 1)
	signal.Notify(sigCh, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-time.After(time.Duration(*seconds * float64(time.Second))):
	case s := <-sigCh:
		log.Printf("cluster-process: got %v, shutting down early", s)
	}
	srv.Shutdown()
	return nil
}
