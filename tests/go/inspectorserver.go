package main

// serve-inspector is the benchmarks' honest baseline: a minimal net/http server
// over asynq v0.26.0's own Inspector, answering the reads asynqmon's handlers
// answer, so asynqlens can be timed over HTTP against Go over HTTP with the same
// client. Once listening it prints "LISTENING <host:port>", then READY, and
// serves until stdin closes or SIGTERM.
//
//	GET /api/health/live                      no Redis: the server's own per-request floor
//	GET /api/queues                           Queues() + GetQueueInfo per queue (asynqmon's queue list)
//	GET /api/queues/{q}/tasks?state=&page=&size=  List<State>Tasks with Page/PageSize
//	GET /api/queues/{q}/tasks/{id}            GetTaskInfo
//
// asynqmon's list handler also calls GetQueueInfo for its stats panel; this one
// answers the page alone (one round trip), so the baseline is never slower than
// asynqmon's.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
)

func runServeInspector(args []string) error {
	fs := flag.NewFlagSet("serve-inspector", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	addr := fs.String("addr", "127.0.0.1:0", "HOST:PORT to listen on (port 0: any free port)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	insp := asynq.NewInspector(rf.connOpt())
	defer insp.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: inspectorRoutes(insp), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Printf("LISTENING %s\nREADY\n", ln.Addr())

	waitForEnd(0)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func inspectorRoutes(insp *asynq.Inspector) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health/live", jsonHandler(func(*http.Request) (any, error) {
		return map[string]string{"status": "ok"}, nil
	}))
	mux.HandleFunc("GET /api/queues", jsonHandler(func(*http.Request) (any, error) {
		return listQueues(insp)
	}))
	mux.HandleFunc("GET /api/queues/{q}/tasks", jsonHandler(func(r *http.Request) (any, error) {
		return listTasks(insp, r)
	}))
	mux.HandleFunc("GET /api/queues/{q}/tasks/{id}", jsonHandler(func(r *http.Request) (any, error) {
		ti, err := insp.GetTaskInfo(r.PathValue("q"), r.PathValue("id"))
		if err != nil {
			return nil, err
		}
		return toTaskJSON(ti), nil
	}))
	return mux
}

func listQueues(insp *asynq.Inspector) (any, error) {
	names, err := insp.Queues()
	if err != nil {
		return nil, err
	}
	queues := make([]queueInfoJSON, 0, len(names))
	for _, q := range names {
		qi, err := insp.GetQueueInfo(q)
		if err != nil {
			return nil, err
		}
		queues = append(queues, toQueueInfoJSON(qi))
	}
	return map[string]any{"queues": queues}, nil
}

func listTasks(insp *asynq.Inspector, r *http.Request) (any, error) {
	list := map[string]func(string, ...asynq.ListOption) ([]*asynq.TaskInfo, error){
		"pending":   insp.ListPendingTasks,
		"active":    insp.ListActiveTasks,
		"scheduled": insp.ListScheduledTasks,
		"retry":     insp.ListRetryTasks,
		"archived":  insp.ListArchivedTasks,
		"completed": insp.ListCompletedTasks,
	}[r.URL.Query().Get("state")]
	if list == nil {
		return nil, errBadRequest("state must be pending, active, scheduled, retry, archived or completed")
	}
	page, err1 := strconv.Atoi(r.URL.Query().Get("page"))
	size, err2 := strconv.Atoi(r.URL.Query().Get("size"))
	if err1 != nil || err2 != nil || page < 1 || size < 1 {
		return nil, errBadRequest("page and size must be positive integers")
	}
	tasks, err := list(r.PathValue("q"), asynq.Page(page), asynq.PageSize(size))
	if err != nil {
		return nil, err
	}
	out := make([]taskJSON, 0, len(tasks))
	for _, t := range tasks {
		out = append(out, toTaskJSON(t))
	}
	return map[string]any{"tasks": out, "page": page, "size": size}, nil
}

type errBadRequest string

func (e errBadRequest) Error() string { return string(e) }

// jsonHandler writes what read returns as JSON, or its error with the status
// asynqmon gives it.
func jsonHandler(read func(*http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := read(r)
		w.Header().Set("Content-Type", "application/json")
		if err != nil {
			w.WriteHeader(errorStatus(err))
			v = map[string]string{"error": err.Error()}
		}
		_ = json.NewEncoder(w).Encode(v)
	}
}

func errorStatus(err error) int {
	var bad errBadRequest
	switch {
	case errors.As(err, &bad):
		return http.StatusBadRequest
	case errors.Is(err, asynq.ErrQueueNotFound), errors.Is(err, asynq.ErrTaskNotFound):
		return http.StatusNotFound
	}
	return http.StatusInternalServerError
}
