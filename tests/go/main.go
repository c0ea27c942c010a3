// Command interop-bin is the compatibility judge for asynqlens: it drives the
// real asynq (v0.26.0, v0.25.1 or v0.24.1) Client, Server, Scheduler and Inspector against a Redis
// started by the TypeScript tests, so the TS side can compare its own view of
// that Redis with Go's, field by field.
//
// Subcommands (all take --redis HOST:PORT and --db N):
//
//	scenario     build every fixture situation, print READY, wait for stdin EOF / SIGTERM
//	dump         print everything the Go Inspector sees as one JSON document
//	bench-reads  count Redis round trips and latency of typical dashboard reads
//	bench-process, bench-enqueue  server and client throughput (see throughput.go)
//	serve-inspector  an HTTP server over the Inspector, the benchmarks' baseline (--addr)
//	enqueue      enqueue one task described by JSON on stdin, print the result
//	inspect-op   run one Inspector write operation described by JSON on stdin
//	dump-redis   print every key of the db (type, ttl presence, base64 value)
//	enqueue-race enqueue the same task from N goroutines at one instant
//	process      run a real asynq.Server for S seconds, one JSON line per task
//	cluster-*    seed, dump and process over a Redis Cluster (--nodes; see cluster.go)
//	sentinel-*   seed, dump and process through Redis Sentinel (--sentinels, --master; see sentinel.go)
//	archive-cutoff  asynq's 90-day archive cutoff at given instants in a given zone (--tz)
//	schedule     run a real asynq.Scheduler with the given --spec entries until stdin EOF / SIGTERM
//	cron-next    robfig/cron's parse and next fire times for specs on stdin, as asynq's Scheduler reads them
//	version      print the asynq and go-redis versions built in, and what that asynq can do
//
// One source builds against each asynq release in asynq-versions.txt: the
// asynq_*.go files hold the API that differs between releases.
//
// stdout carries only the machine-readable output; all logs go to stderr.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/hibiken/asynq"
)

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	var err error
	switch cmd {
	case "scenario":
		err = runScenario(args)
	case "dump":
		err = runDump(args)
	case "bench-reads":
		err = runBenchReads(args)
	case "bench-process":
		err = runBenchProcess(args)
	case "bench-enqueue":
		err = runBenchEnqueue(args)
	case "serve-inspector":
		err = runServeInspector(args)
	case "enqueue":
		err = runEnqueue(args)
	case "inspect-op":
		err = runInspectOp(args)
	case "dump-redis":
		err = runDumpRedis(args)
	case "enqueue-race":
		err = runEnqueueRace(args)
	case "process":
		err = runProcess(args)
	case "serve":
		err = runServe(args)
	case "enqueue-many":
		err = runEnqueueMany(args)
	case "process-retry":
		err = runProcessRetry(args)
	case "diag-scenario":
		err = runDiagScenario(args)
	case "triage-serve":
		err = runTriageServe(args)
	case "routing-match":
		err = runRoutingMatch(args)
	case "cluster-seed":
		err = runClusterSeed(args)
	case "cluster-dump":
		err = runClusterDump(args)
	case "cluster-process":
		err = runClusterProcess(args)
	case "sentinel-seed":
		err = runSentinelSeed(args)
	case "sentinel-dump":
		err = runSentinelDump(args)
	case "sentinel-process":
		err = runSentinelProcess(args)
	case "archive-cutoff":
		err = runArchiveCutoff(args)
	case "schedule":
		err = runSchedule(args)
	case "cron-next":
		err = runCronNext(args)
	case "version":
		err = runVersion(args)
	default:
		usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "interop-bin %s: %v\n", cmd, err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: interop-bin scenario|dump|bench-reads|serve-inspector|enqueue|inspect-op|dump-redis|enqueue-race|process --redis HOST:PORT [--db N] [subcommand flags]")
}

// redisFlags holds the connection flags shared by every subcommand.
type redisFlags struct {
	addr string
	db   int
}

func addRedisFlags(fs *flag.FlagSet) *redisFlags {
	r := &redisFlags{}
	fs.StringVar(&r.addr, "redis", "127.0.0.1:6379", "Redis address HOST:PORT")
	fs.IntVar(&r.db, "db", 0, "Redis database number")
	return r
}

func (r *redisFlags) connOpt() asynq.RedisClientOpt {
	return asynq.RedisClientOpt{Addr: r.addr, DB: r.db}
}

// writeJSON prints v as one JSON document. HTML escaping is off so that queue
// names and error texts appear byte-for-byte as Go produced them.
func writeJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
