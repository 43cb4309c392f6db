/*
 * admission.h - pricing a request against the memory budget, between the
 * request lifecycle (server.c) and the budget (service/budget.h);
 * svc_req_admit, which handlers call, is declared in request.h.
 */
#ifndef SVC_ADMISSION_H
#define SVC_ADMISSION_H

#include "request.h"

#include <stdint.h>

/* Answer 503 + Retry-After: the budget is taken by requests in flight.
 * 0 when the answer was queued. */
int svc_admit_refuse(svc_req *r);

/* Charge the request for a body of `len` bytes (its arena estimate
 * included), in whole MiB so a growing body is charged rarely. 0, or -1
 * when the budget cannot hold it (nothing more charged). */
int svc_admit_body(svc_req *r, uint64_t len);

/* Meter the request's arena by its account: from here what it builds is
 * charged. 0, or -1 when the budget cannot hold even its first block. */
int svc_admit_meter(svc_req *r);

/* The bytes of the request's query (keys, values, separators): what
 * svc_budget_query_cost prices at the first admission. */
unsigned long long svc_admit_query_bytes(svc_req *r);

#endif
