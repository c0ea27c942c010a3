package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/hibiken/asynq"
)

// diag-scenario builds, with the real asynq v0.26.0 Client and Server, every
// unique-lock and duplicate situation the diagnostics suite must recognise,
// then exits (no server stays up) and prints the task IDs as one JSON line:
//
//   - ok:released   Unique(1h), processed successfully: its lock is released
//   - fail:archived Unique(1h), MaxRetry(0), fails: archived, the lock stays
//   - fail:retrying Unique(lockTTL), MaxRetry(5), fails once: in retry with
//     asynq's default delay (15-44 s), while its lock lasts only lockTTL
//   - hold:pending  Unique(1h) in a queue no server reads: a live holder
//   - a second enqueue of fail:archived's type and payload, refused by asynq
//   - in the dup queue, plain enqueues: 3 identical email:send, 3 report:build
//     that differ only in a "timestamp" field, 2 sync:run that differ only in
//     a "nonce" UUID, and 1 other email:send
type diagResult struct {
	Released         string   `json:"released"`
	Archived         string   `json:"archived"`
	Retrying         string   `json:"retrying"`
	Pending          string   `json:"pending"`
	ReenqueueRefused bool     `json:"reenqueueRefused"`
	ReenqueueError   string   `json:"reenqueueError"`
	Exact            []string `json:"exact"`
	NearTimestamp    []string `json:"nearTimestamp"`
	NearNonce        []string `json:"nearNonce"`
	Single           string   `json:"single"`
}

func runDiagScenario(args []string) error {
	fs := flag.NewFlagSet("diag-scenario", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	queue := fs.String("queue", "locks", "queue the server processes")
	idle := fs.String("idle-queue", "locks-idle", "queue no server processes")
	dups := fs.String("dup-queue", "dups", "queue of the duplicate tasks")
	lockTTL := fs.Duration("retry-lock-ttl", 20*time.Second, "unique TTL of fail:retrying")
	timeout := fs.Duration("timeout", 30*time.Second, "give up if the situations are not reached in time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log.SetOutput(os.Stderr)
	log.SetPrefix("diag-scenario: ")
	client := asynq.NewClient(rf.connOpt())
	defer client.Close()
	insp := asynq.NewInspector(rf.connOpt())
	defer insp.Close()

	var res diagResult
	var err error
	enq := func(id *string, typ, payload string, opts ...asynq.Option) {
		if err != nil {
			return
		}
		var info *asynq.TaskInfo
		info, err = client.Enqueue(asynq.NewTask(typ, []byte(payload)), opts...)
		if err == nil {
			*id = info.ID
		}
	}
	enq(&res.Released, "ok:released", `{"n":1}`, asynq.Queue(*queue), asynq.Unique(time.Hour))
	enq(&res.Archived, "fail:archived", `{"n":2}`, asynq.Queue(*queue), asynq.Unique(time.Hour), asynq.MaxRetry(0))
	enq(&res.Retrying, "fail:retrying", `{"n":3}`, asynq.Queue(*queue), asynq.Unique(*lockTTL), asynq.MaxRetry(5))
	enq(&res.Pending, "hold:pending", `{"n":4}`, asynq.Queue(*idle), asynq.Unique(time.Hour))
	if err != nil {
		return fmt.Errorf("enqueue unique tasks: %w", err)
	}

	if err := processUntil(rf, *queue, insp, res, *timeout); err != nil {
		return err
	}

	_, err = client.Enqueue(asynq.NewTask("fail:archived", []byte(`{"n":2}`)), asynq.Queue(*queue), asynq.Unique(time.Hour))
	res.ReenqueueRefused = errors.Is(err, asynq.ErrDuplicateTask)
	if err != nil {
		res.ReenqueueError = err.Error()
	}
	if err := enqueueDuplicates(client, *dups, &res); err != nil {
		return err
	}
	return writeJSON(res)
}

// processUntil runs a server with asynq's default retry delay until the three
// processed tasks reached their situations, then shuts it down.
func processUntil(rf *redisFlags, queue string, insp *asynq.Inspector, res diagResult, timeout time.Duration) error {
	srv := asynq.NewServer(rf.connOpt(), asynq.Config{
		Concurrency:     2,
		Queues:          map[string]int{queue: 1},
		LogLevel:        asynq.WarnLevel,
		ShutdownTimeout: time.Second,
	})
	mux := asynq.NewServeMux()
	mux.HandleFunc("ok:", func(context.Context, *asynq.Task) error { return nil })
	mux.HandleFunc("fail:", func(_ context.Context, t *asynq.Task) error { return errors.New("boom: " + t.Type()) })
	if err := srv.Start(mux); err != nil {
		return fmt.Errorf("server start: %w", err)
	}
	defer srv.Shutdown()
	deadline := time.Now().Add(timeout)
	for {
		missing := diagMissing(insp, queue, res)
		if missing == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("situation not reached: %s", missing)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// diagMissing says what is not there yet ("" when every situation is).
func diagMissing(insp *asynq.Inspector, queue string, res diagResult) string {
	if _, err := insp.GetTaskInfo(queue, res.Released); !errors.Is(err, asynq.ErrTaskNotFound) {
		return "ok:released not done yet"
	}
	if t, err := insp.GetTaskInfo(queue, res.Archived); err != nil || t.State != asynq.TaskStateArchived {
		return "fail:archived not archived yet"
	}
	if t, err := insp.GetTaskInfo(queue, res.Retrying); err != nil || t.State != asynq.TaskStateRetry || t.Retried != 1 {
		return "fail:retrying not in retry yet"
	}
	return ""
}

func enqueueDuplicates(client *asynq.Client, queue string, res *diagResult) error {
	add := func(typ string, payload []byte) (string, error) {
		info, err := client.Enqueue(asynq.NewTask(typ, payload), asynq.Queue(queue))
		if err != nil {
			return "", fmt.Errorf("enqueue %s: %w", typ, err)
		}
		return info.ID, nil
	}
	base := time.Now().UTC()
	for i := 0; i < 3; i++ {
		id, err := add("email:send", []byte(`{"to":"a@example.com","template":"welcome"}`))
		if err != nil {
			return err
		}
		res.Exact = append(res.Exact, id)
		// Field order as a Go struct would write it; only the timestamp differs.
		stamp := base.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano)
		payload, _ := json.Marshal(struct {
			Report    string `json:"report"`
			User      int    `json:"user"`
			Timestamp string `json:"timestamp"`
		}{"daily", 7, stamp})
		if id, err = add("report:build", payload); err != nil {
			return err
		}
		res.NearTimestamp = append(res.NearTimestamp, id)
	}
	for i := 0; i < 2; i++ {
		id, err := add("sync:run", []byte(fmt.Sprintf(`{"account":"acme","nonce":%q}`, newUUID())))
		if err != nil {
			return err
		}
		res.NearNonce = append(res.NearNonce, id)
	}
	id, err := add("email:send", []byte(`{"to":"b@example.com","template":"welcome"}`))
	res.Single = id
	return err
}

// newUUID returns a random version-4 UUID string.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
