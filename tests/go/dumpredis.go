package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"math"
	"sort"

	"github.com/redis/go-redis/v9"
)

// rawKeyJSON is one key of the dump-redis snapshot. Every byte string is
// base64 so binary task messages survive JSON exactly; ttl is only "none" or
// "set" because the remaining time is never equal between two runs.
type rawKeyJSON struct {
	Type  string `json:"type"`
	TTL   string `json:"ttl"`
	Value any    `json:"value"`
}

func runDumpRedis(args []string) error {
	fs := flag.NewFlagSet("dump-redis", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	rc := redis.NewClient(&redis.Options{Addr: rf.addr, DB: rf.db})
	defer rc.Close()

	// SCAN may return a key more than once; the map dedupes. encoding/json
	// writes map keys sorted, which gives the canonical key order for free.
	out := map[string]rawKeyJSON{}
	iter := rc.Scan(ctx, 0, "*", 1000).Iterator()
	for iter.Next(ctx) {
		out[iter.Val()] = rawKeyJSON{}
	}
	if err := iter.Err(); err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	for key := range out {
		v, ok, err := readRawKey(ctx, rc, key)
		if err != nil {
			return fmt.Errorf("key %q: %w", key, err)
		}
		if !ok {
			delete(out, key) // expired or deleted between SCAN and read
			continue
		}
		out[key] = v
	}
	return writeJSON(out)
}

func readRawKey(ctx context.Context, rc *redis.Client, key string) (rawKeyJSON, bool, error) {
	typ, err := rc.Type(ctx, key).Result()
	if err != nil || typ == "none" {
		return rawKeyJSON{}, false, err
	}
	ttl, err := rc.PTTL(ctx, key).Result()
	if err != nil {
		return rawKeyJSON{}, false, err
	}
	// go-redis maps PTTL -1 (no expiry) to -1ns and -2 (missing) to -2ns.
	if ttl == -2 {
		return rawKeyJSON{}, false, nil
	}
	k := rawKeyJSON{Type: typ, TTL: "set"}
	if ttl == -1 {
		k.TTL = "none"
	}
	enc := base64.StdEncoding.EncodeToString
	switch typ {
	case "string":
		s, err := rc.Get(ctx, key).Result()
		if err != nil {
			return k, false, ignoreNil(err)
		}
		k.Value = enc([]byte(s))
	case "list":
		els, err := rc.LRange(ctx, key, 0, -1).Result()
		if err != nil {
			return k, false, err
		}
		k.Value = mapB64(els)
	case "set":
		ms, err := rc.SMembers(ctx, key).Result()
		if err != nil {
			return k, false, err
		}
		b := mapB64(ms)
		sort.Strings(b) // order of the base64 strings, i.e. what JS .sort() gives
		k.Value = b
	case "zset":
		zs, err := rc.ZRangeWithScores(ctx, key, 0, -1).Result()
		if err != nil {
			return k, false, err
		}
		k.Value = zsetPairs(zs)
	case "hash":
		h, err := rc.HGetAll(ctx, key).Result()
		if err != nil {
			return k, false, err
		}
		m := make(map[string]string, len(h))
		for f, v := range h {
			m[f] = enc([]byte(v))
		}
		k.Value = m
	default:
		// asynq never creates streams etc.; report the type so a diff shows it.
		k.Value = nil
	}
	return k, true, nil
}

func ignoreNil(err error) error {
	if err == redis.Nil {
		return nil
	}
	return err
}

func mapB64(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = base64.StdEncoding.EncodeToString([]byte(s))
	}
	return out
}

// zsetPairs sorts by score, then by the base64 member (same tie order as the
// set case). JSON has no infinity, so ±inf scores become "+inf"/"-inf".
func zsetPairs(zs []redis.Z) [][2]any {
	type pair struct {
		m string
		s float64
	}
	ps := make([]pair, len(zs))
	for i, z := range zs {
		ps[i] = pair{base64.StdEncoding.EncodeToString([]byte(z.Member.(string))), z.Score}
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].s != ps[j].s {
			return ps[i].s < ps[j].s
		}
		return ps[i].m < ps[j].m
	})
	out := make([][2]any, len(ps))
	for i, p := range ps {
		var score any = p.s
		if math.IsInf(p.s, 1) {
			score = "+inf"
		} else if math.IsInf(p.s, -1) {
			score = "-inf"
		}
		out[i] = [2]any{p.m, score}
	}
	return out
}
