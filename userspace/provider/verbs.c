// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device, port, protection-domain and address-handle verbs: thin
 * wrappers over the uverbs commands.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rue.h"

int rue_query_device_ex(struct ibv_context *ctx,
			const struct ibv_query_device_ex_input *input,
			struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	uint64_t fw;
	int ret;

	ret = ibv_cmd_query_device_any(ctx, input, attr, attr_size, &resp,
				       &resp_size);
	if (ret)
		return ret;

	fw = resp.base.fw_ver;
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "%u.%u.%u", (unsigned int)(fw >> 32) & 0xffff,
		 (unsigned int)(fw >> 16) & 0xffff, (unsigned int)fw & 0xffff);
	return 0;
}

/*
 * The device clock is CLOCK_MONOTONIC in nanoseconds (the kernel's
 * ktime_get_ns(), which stamps completions); as mlx5 does, the raw clock's
 * ticks go in tv_nsec whole.  A process in a time namespace of its own
 * sees a shifted CLOCK_MONOTONIC, but the stamps are the host's.
 */
int rue_query_rt_values(struct ibv_context *ctx, struct ibv_values_ex *values)
{
	uint32_t asked = values->comp_mask;
	struct timespec now;

	/* on return comp_mask says what was filled in */
	values->comp_mask = 0;
	if (!(asked & IBV_VALUES_MASK_RAW_CLOCK))
		return 0;
	if (clock_gettime(CLOCK_MONOTONIC, &now))
		return errno;
	values->raw_clock.tv_sec = 0;
	values->raw_clock.tv_nsec =
		(long)((uint64_t)now.tv_sec * 1000000000ULL + now.tv_nsec);
	values->comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	return 0;
}

int rue_query_port(struct ibv_context *ctx, uint8_t port,
		   struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd = {};

	return ibv_cmd_query_port(ctx, port, attr, &cmd, sizeof(cmd));
}

struct ibv_pd *rue_alloc_pd(struct ibv_context *ctx)
{
	struct ib_uverbs_alloc_pd_resp resp;
	struct ibv_alloc_pd cmd = {};
	struct ibv_pd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;
	ret = ibv_cmd_alloc_pd(ctx, pd, &cmd, sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	return pd;
}

int rue_dealloc_pd(struct ibv_pd *pd)
{
	int ret;

	ret = ibv_cmd_dealloc_pd(pd);
	if (ret)
		return ret;
	free(pd);
	return 0;
}

struct rue_create_ah_resp_full {
	struct ib_uverbs_create_ah_resp ibv_resp;
	struct rue_create_ah_resp drv;
};

struct ibv_ah *rue_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct rue_create_ah_resp_full resp = {};
	struct rue_ah *ah;
	int ret;

	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return NULL;
	ret = ibv_cmd_create_ah(pd, &ah->ibah, attr, &resp.ibv_resp,
				sizeof(resp));
	if (ret) {
		free(ah);
		errno = ret;
		return NULL;
	}
	ah->ah_num = resp.drv.ah_num;
	return &ah->ibah;
}

int rue_destroy_ah(struct ibv_ah *ah)
{
	int ret;

	ret = ibv_cmd_destroy_ah(ah);
	if (ret)
		return ret;
	free(to_rah(ah));
	return 0;
}
