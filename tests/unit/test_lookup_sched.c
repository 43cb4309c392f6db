/*
 * test_lookup_sched.c - the lookup scheduler (service/lookup/lookup_sched.c):
 * per-request claim limits, turns across requests, fair slot shares, single
 * flight across requests, and what cancelling or closing a request orphans.
 */
#include "test.h"
#include "../../service/lookup/lookup_sched.h"

#define NITEMS 320

typedef struct orphans {
    int waiting, running; /* running: its transfer started (it may have ended) */
} orphans;

static void count_orphan(svc_sched_item *it, int was_waiting, void *cls)
{
    orphans *o = cls;
    (void)it;
    if (was_waiting)
        o->waiting++;
    else
        o->running++;
}

TEST(lookup_sched_share)
{
    CHECK(svc_sched_share(10, 1) == 9); /* alone: all but one slot */
    CHECK(svc_sched_share(10, 2) == 5);
    CHECK(svc_sched_share(10, 3) == 4);
    CHECK(svc_sched_share(16, 40) == 1);
    CHECK(svc_sched_share(1, 1) == 1);
    CHECK(svc_sched_share(1, 5) == 1);
    CHECK(svc_sched_share(2, 1) == 1);
}

TEST(lookup_sched_cap)
{
    static svc_sched_item it[5];
    memset(it, 0, sizeof it);
    svc_sched s;
    svc_sched_init(&s, 4);
    svc_sched_req *q = svc_sched_open(&s, 3);
    CHECK(q != NULL);
    CHECK(svc_sched_claim(&s, q, &it[0], 1) == SVC_CLAIM_NEW);
    CHECK(svc_sched_claim(&s, q, &it[1], 1) == SVC_CLAIM_NEW);
    CHECK(svc_sched_claim(&s, q, &it[2], 0) == SVC_CLAIM_NEW); /* a join counts too */
    CHECK(svc_sched_claim(&s, q, &it[3], 1) == SVC_CLAIM_CAPPED);
    CHECK(svc_sched_claim(&s, q, &it[0], 1) == SVC_CLAIM_HELD); /* again: not counted twice */
    CHECK(svc_sched_claims(q) == 3);
    CHECK(it[0].wanters == 1 && it[3].wanters == 0);
    CHECK(it[0].waiting && !it[2].waiting && !it[3].waiting);
    orphans o = {0, 0};
    svc_sched_cancel(&s, q, count_orphan, &o);
    CHECK(o.waiting == 2 && o.running == 1);
    CHECK(!it[0].waiting && it[0].wanters == 0);
    CHECK(svc_sched_claim(&s, q, &it[4], 1) == SVC_CLAIM_CANCELLED);
    CHECK(svc_sched_next(&s) == NULL); /* nothing queued is left */
    svc_sched_close(&s, q, count_orphan, &o);
    CHECK(s.turn == NULL);
}

/* 300 queued names cannot hold back a request with one */
TEST(lookup_sched_turns)
{
    static svc_sched_item it[NITEMS + 1];
    memset(it, 0, sizeof it);
    svc_sched s;
    svc_sched_init(&s, 4);
    svc_sched_req *a = svc_sched_open(&s, 1000);
    for (int i = 0; i < 300; i++)
        CHECK(svc_sched_claim(&s, a, &it[i], 1) == SVC_CLAIM_NEW);
    /* alone, it may take all slots but one */
    CHECK(svc_sched_next(&s) == &it[0]);
    CHECK(svc_sched_next(&s) == &it[1]);
    CHECK(svc_sched_next(&s) == &it[2]);
    CHECK(svc_sched_next(&s) == NULL);
    CHECK(svc_sched_running(a) == 3 && it[0].owner == a && !it[0].waiting);
    svc_sched_req *b = svc_sched_open(&s, 1000);
    CHECK(svc_sched_claim(&s, b, &it[NITEMS], 1) == SVC_CLAIM_NEW);
    CHECK(svc_sched_next(&s) == &it[NITEMS]); /* the newcomer finds the free slot */
    CHECK(it[NITEMS].owner == b);
    /* b has nothing queued: a's share is back to three, all slots are busy */
    svc_sched_done(&s, &it[0]);
    CHECK(svc_sched_next(&s) == &it[3]);
    CHECK(svc_sched_next(&s) == NULL);
    /* two requests with queues: each at most half the slots */
    svc_sched_done(&s, &it[NITEMS]);
    svc_sched_done(&s, &it[1]);
    CHECK(svc_sched_running(a) == 2 && svc_sched_running(b) == 0);
    CHECK(svc_sched_claim(&s, b, &it[NITEMS - 1], 1) == SVC_CLAIM_NEW);
    CHECK(svc_sched_claim(&s, b, &it[NITEMS - 2], 1) == SVC_CLAIM_NEW);
    CHECK(svc_sched_next(&s) == &it[NITEMS - 1]); /* a holds its two already */
    CHECK(svc_sched_next(&s) == &it[NITEMS - 2]);
    orphans o = {0, 0};
    svc_sched_close(&s, a, count_orphan, &o);
    CHECK(o.waiting == 300 - 4 && o.running == 4); /* its queue dropped; started ones (2 still running) orphaned */
    CHECK(svc_sched_next(&s) == NULL);
    /* a is freed by its last transfer's end (ASan sees a leak or a use after free otherwise) */
    svc_sched_done(&s, &it[2]);
    svc_sched_done(&s, &it[3]);
    svc_sched_close(&s, b, count_orphan, &o);
    CHECK(o.running == 4 + 3);
    svc_sched_done(&s, &it[NITEMS - 1]);
    svc_sched_done(&s, &it[NITEMS - 2]);
    CHECK(s.turn == NULL);
}

/* one transfer for two requests; cancelled only when neither wants it */
TEST(lookup_sched_single_flight)
{
    static svc_sched_item x, y;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    svc_sched s;
    svc_sched_init(&s, 4);
    svc_sched_req *a = svc_sched_open(&s, 10), *b = svc_sched_open(&s, 10);
    CHECK(svc_sched_claim(&s, a, &x, 1) == SVC_CLAIM_NEW);
    CHECK(svc_sched_claim(&s, b, &x, 1) == SVC_CLAIM_NEW);
    CHECK(x.wanters == 2);
    CHECK(svc_sched_next(&s) == &x);
    CHECK(svc_sched_next(&s) == NULL); /* b's copy is stale: not started twice */
    orphans o = {0, 0};
    svc_sched_cancel(&s, a, count_orphan, &o);
    CHECK(o.waiting == 0 && o.running == 0 && x.wanters == 1);
    /* a queued item a cancelled request shared stays queued for the other */
    CHECK(svc_sched_claim(&s, b, &y, 1) == SVC_CLAIM_NEW);
    svc_sched_req *c = svc_sched_open(&s, 10);
    CHECK(svc_sched_claim(&s, c, &y, 1) == SVC_CLAIM_NEW);
    svc_sched_close(&s, b, count_orphan, &o);
    /* x still runs, for nobody now: orphaned when b went; y stays queued for c */
    CHECK(o.running == 1 && o.waiting == 0 && y.waiting && x.wanters == 0);
    CHECK(svc_sched_next(&s) == &y && y.owner == c);
    /* failed, then wanted again by the request that held it: queued anew */
    svc_sched_done(&s, &y);
    CHECK(svc_sched_claim(&s, c, &y, 1) == SVC_CLAIM_HELD && y.waiting);
    CHECK(svc_sched_next(&s) == &y);
    svc_sched_done(&s, &x);
    svc_sched_done(&s, &y);
    svc_sched_close(&s, a, count_orphan, &o);
    svc_sched_close(&s, c, count_orphan, &o);
    CHECK(s.turn == NULL);
}
