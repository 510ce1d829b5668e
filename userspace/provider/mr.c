// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions: ibv_reg_mr and ruedv_reg_mr, which share one command.
 *
 * Every registration sends struct rue_reg_mr_cmd and reads struct
 * rue_reg_mr_resp, so every MR learns its 64-bit UET key when the kernel
 * has one (ruedv_query_mr).  The driver response follows the core's
 * 12-byte struct ib_uverbs_reg_mr_resp directly (the kernel copies it to
 * the end of the core response), so it sits at a 4-byte boundary here:
 * it is received as bytes and copied out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rue.h"
#include "ruedv.h"

struct rue_reg_mr_cmd_full {
	struct ibv_reg_mr ibv_cmd;
	struct rue_reg_mr_cmd drv;
};

struct rue_reg_mr_resp_full {
	struct ib_uverbs_reg_mr_resp ibv_resp;
	uint8_t drv[sizeof(struct rue_reg_mr_resp)];
};

static_assert(offsetof(struct rue_reg_mr_cmd_full, drv) ==
	      sizeof(struct ibv_reg_mr), "driver command follows the core's");
static_assert(offsetof(struct rue_reg_mr_resp_full, drv) ==
	      sizeof(struct ib_uverbs_reg_mr_resp),
	      "driver response follows the core's");

static struct ibv_mr *rue_reg_mr_drv(struct ibv_pd *pd, void *addr,
				     size_t length, uint64_t hca_va, int access,
				     const struct rue_reg_mr_cmd *drv)
{
	struct rue_reg_mr_cmd_full cmd = { .drv = *drv };
	struct rue_reg_mr_resp_full resp = {};
	struct rue_reg_mr_resp dresp;
	struct rue_mr *mr;
	int ret;

	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return NULL;
	ret = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, &mr->vmr,
			     &cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
			     sizeof(resp));
	if (ret) {
		free(mr);
		errno = ret;
		return NULL;
	}
	memcpy(&dresp, resp.drv, sizeof(dresp));
	if (dresp.comp_mask & RUE_REG_MR_RESP_KEY64) {
		mr->has_key64 = true;
		mr->key64 = dresp.key64;
	}
	if (drv->comp_mask & RUE_REG_MR_CMD_JOB) {
		mr->job_id = drv->job_id;
		mr->flags = RUEDV_MR_F_JOB;
	}
	return &mr->vmr.ibv_mr;
}

struct ibv_mr *rue_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access)
{
	const struct rue_reg_mr_cmd drv = {};

	return rue_reg_mr_drv(pd, addr, length, hca_va, access, &drv);
}

struct rue_rereg_mr_resp_full {
	struct ib_uverbs_rereg_mr_resp ibv_resp;
	uint8_t drv[sizeof(struct rue_reg_mr_resp)];
};

/*
 * The kernel builds a new MR in the old one's place (new keys, which
 * ibv_cmd_rereg_mr() stores), and with it a new 64-bit UET key.
 */
int rue_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		 void *addr, size_t length, int access)
{
	struct rue_mr *mr = container_of(vmr, struct rue_mr, vmr);
	struct rue_rereg_mr_resp_full resp = {};
	struct rue_reg_mr_resp dresp;
	struct ibv_rereg_mr cmd = {};
	int ret;

	ret = ibv_cmd_rereg_mr(vmr, flags, addr, length, (uintptr_t)addr,
			       access, pd, &cmd, sizeof(cmd), &resp.ibv_resp,
			       sizeof(resp));
	if (ret)
		return ret;
	memcpy(&dresp, resp.drv, sizeof(dresp));
	mr->has_key64 = dresp.comp_mask & RUE_REG_MR_RESP_KEY64;
	mr->key64 = mr->has_key64 ? dresp.key64 : 0;
	return 0;
}

int rue_dereg_mr(struct verbs_mr *vmr)
{
	int ret;

	ret = ibv_cmd_dereg_mr(vmr);
	if (ret)
		return ret;
	free(container_of(vmr, struct rue_mr, vmr));
	return 0;
}

static int rue_check_mr_init(struct rue_context *ctx,
			     const struct ruedv_mr_init_attr *attr,
			     uint32_t inlen)
{
	int ret;

	ret = rue_check_dv_in(attr, inlen,
			      RUE_FIELD_END(struct ruedv_mr_init_attr, job_id),
			      sizeof(*attr));
	if (ret)
		return ret;
	if (attr->comp_mask & ~(uint64_t)RUEDV_MR_INIT_ATTR_MASK_JOB) {
		rue_err(&ctx->vctx, "unknown comp_mask 0x%llx\n",
			(unsigned long long)attr->comp_mask);
		return EINVAL;
	}
	if (inlen >= RUE_FIELD_END(struct ruedv_mr_init_attr, reserved) &&
	    attr->reserved)
		return EINVAL;
	if (!(attr->comp_mask & RUEDV_MR_INIT_ATTR_MASK_JOB))
		return 0;
	/*
	 * A kernel without job MRs would ignore the job and register an
	 * MR every job can use: refuse instead.
	 */
	if (!(ctx->uet_caps & RUE_UET_CAP_JOB_MR)) {
		rue_err(&ctx->vctx, "the device has no job-restricted MRs\n");
		return EOPNOTSUPP;
	}
	if (attr->job_id > 0xffffff) {
		rue_err(&ctx->vctx, "job %u: job IDs have 24 bits\n",
			attr->job_id);
		return EINVAL;
	}
	return 0;
}

RUEDV_EXPORT struct ibv_mr *ruedv_reg_mr(struct ibv_pd *pd, void *addr,
					 size_t length, int access,
					 struct ruedv_mr_init_attr *attr,
					 uint32_t inlen)
{
	struct rue_reg_mr_cmd drv = {};
	struct ibv_mr *mr;
	int ret;

	if (!pd || !rue_is_rue_ctx(pd->context)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	ret = rue_check_mr_init(to_rctx(pd->context), attr, inlen);
	if (ret) {
		errno = ret;
		return NULL;
	}
	if (attr->comp_mask & RUEDV_MR_INIT_ATTR_MASK_JOB) {
		drv.comp_mask = RUE_REG_MR_CMD_JOB;
		drv.job_id = attr->job_id;
	}
	/*
	 * What ibv_reg_mr() does around the provider, done here the same
	 * way, since ibv_dereg_mr() undoes it: keep the pages from being
	 * copied on fork, and fill in the MR's core fields.
	 */
	if (!(access & IBV_ACCESS_ON_DEMAND) && ibv_dontfork_range(addr, length))
		return NULL;
	mr = rue_reg_mr_drv(pd, addr, length, (uintptr_t)addr, access, &drv);
	if (!mr) {
		ret = errno;
		if (!(access & IBV_ACCESS_ON_DEMAND))
			ibv_dofork_range(addr, length);
		errno = ret;
		return NULL;
	}
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	return mr;
}

RUEDV_EXPORT int ruedv_query_mr(struct ibv_mr *ibmr, struct ruedv_mr_attr *attr,
				uint32_t inlen)
{
	struct rue_mr *mr;

	if (!ibmr || !rue_is_rue_ctx(ibmr->context))
		return EOPNOTSUPP;
	if (inlen < RUE_FIELD_END(struct ruedv_mr_attr, flags))
		return EINVAL;
	mr = to_rmr(ibmr);
	if (!mr->has_key64)
		return EOPNOTSUPP;
	memset(attr, 0, inlen);
	attr->key64 = mr->key64;
	attr->job_id = mr->job_id;
	attr->flags = mr->flags;
	return 0;
}
