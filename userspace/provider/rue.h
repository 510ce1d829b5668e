/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * librue internal types.
 */
#ifndef RUE_PROVIDER_H
#define RUE_PROVIDER_H

#include <infiniband/verbs.h>

#include "ibverbs_driver.h"

#define RUE_LOG(ctx, level, fmt, ...)                                        \
	__verbs_log(ctx, level, "%s: %s: " fmt,                              \
		    (ctx)->context.device->name, __func__, ##__VA_ARGS__)
#define rue_err(ctx, fmt, ...) RUE_LOG(ctx, VERBS_LOG_ERR, fmt, ##__VA_ARGS__)
#define rue_dbg(ctx, fmt, ...) RUE_LOG(ctx, VERBS_LOG_DEBUG, fmt, ##__VA_ARGS__)

struct rue_device {
	struct verbs_device vdev;
};

struct rue_context {
	struct verbs_context vctx;
	uint32_t caps;		/* enum rue_ctx_caps */
	uint32_t max_inline;
	uint32_t max_sge;
};

static inline struct rue_context *to_rctx(struct ibv_context *ctx)
{
	return container_of(ctx, struct rue_context, vctx.context);
}

/* verbs.c */
int rue_query_device_ex(struct ibv_context *ctx,
			const struct ibv_query_device_ex_input *input,
			struct ibv_device_attr_ex *attr, size_t attr_size);
int rue_query_port(struct ibv_context *ctx, uint8_t port,
		   struct ibv_port_attr *attr);
struct ibv_pd *rue_alloc_pd(struct ibv_context *ctx);
int rue_dealloc_pd(struct ibv_pd *pd);

#endif /* RUE_PROVIDER_H */
