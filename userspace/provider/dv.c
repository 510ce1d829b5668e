// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ruedv_* entry points for devices and UET QPs (ruedv.h): argument
 * checks, then the work is done by qp.c.  MRs are in mr.c, completions in
 * cq.c and work request setters in qp_ex.c.
 *
 * Conventions (those of efadv): an object of another device gives
 * EOPNOTSUPP; @inlen is the caller's sizeof, which must reach the end of
 * the oldest fields; an input struct larger than ours must be zero past
 * our end, and unknown comp_mask bits are EINVAL; an output struct is
 * zeroed to @inlen and filled as far as ours goes.  int calls return a
 * positive errno, pointer calls set errno and return NULL.
 */
#include <errno.h>
#include <string.h>

#include "rue.h"
#include "ruedv.h"

/*
 * An input struct of @inlen bytes whose oldest fields end at @oldest,
 * and of which this library knows @ours bytes.
 */
int rue_check_dv_in(const void *attr, uint32_t inlen, size_t oldest,
		    size_t ours)
{
	const uint8_t *p = attr;
	size_t i;

	if (!attr || inlen < oldest)
		return EINVAL;
	for (i = ours; i < inlen; i++)
		if (p[i])
			return EINVAL;
	return 0;
}

RUEDV_EXPORT int ruedv_query_device(struct ibv_context *ibctx,
				    struct ruedv_device_attr *attr,
				    uint32_t inlen)
{
	struct rue_context *ctx;

	if (!rue_is_rue_ctx(ibctx))
		return EOPNOTSUPP;
	if (!attr ||
	    inlen < RUE_FIELD_END(struct ruedv_device_attr, max_entropy))
		return EINVAL;
	ctx = to_rctx(ibctx);
	memset(attr, 0, inlen);
	attr->caps = ctx->uet_caps;
	attr->max_msg_size = ctx->uet_max_msg;
	attr->max_entropy = ctx->uet_max_entropy;
	return 0;
}

static bool rue_reserved_clear(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* The UET part of a create: checked against what the device can do. */
static int rue_check_uet_init(struct rue_context *ctx,
			      const struct ruedv_qp_init_attr *attr,
			      uint32_t inlen)
{
	uint32_t mode_cap;
	int ret;

	ret = rue_check_dv_in(attr, inlen,
			      RUE_FIELD_END(struct ruedv_qp_init_attr,
					    resource_index),
			      sizeof(*attr));
	if (ret)
		return ret;
	if (attr->comp_mask) {
		rue_err(&ctx->vctx, "unknown comp_mask 0x%llx\n",
			(unsigned long long)attr->comp_mask);
		return EINVAL;
	}
	if (inlen >= sizeof(*attr) &&
	    !rue_reserved_clear(attr->reserved, sizeof(attr->reserved)))
		return EINVAL;
	if (!(ctx->uet_caps & (RUE_UET_CAP_RUD | RUE_UET_CAP_ROD))) {
		rue_err(&ctx->vctx, "the kernel has no UET QPs\n");
		return EOPNOTSUPP;
	}
	switch (attr->mode) {
	case RUEDV_UET_RUD:
		mode_cap = RUE_UET_CAP_RUD;
		break;
	case RUEDV_UET_ROD:
		mode_cap = RUE_UET_CAP_ROD;
		break;
	case RUEDV_UET_UUD:
		mode_cap = RUE_UET_CAP_UUD;
		break;
	default:
		rue_err(&ctx->vctx, "unknown UET mode %u\n", attr->mode);
		return EINVAL;
	}
	if (!(ctx->uet_caps & mode_cap)) {
		rue_err(&ctx->vctx, "the device has no UET mode %u\n",
			attr->mode);
		return EOPNOTSUPP;
	}
	if (attr->job_id > 0xffffff || attr->resource_index > 0xfff ||
	    attr->entropy > ctx->uet_max_entropy) {
		rue_err(&ctx->vctx,
			"job %u (24 bits), resource index %u (12 bits), entropy %u (max %u)\n",
			attr->job_id, attr->resource_index, attr->entropy,
			ctx->uet_max_entropy);
		return EINVAL;
	}
	return 0;
}

RUEDV_EXPORT struct ibv_qp *ruedv_create_qp(struct ibv_context *ibctx,
					    struct ibv_qp_init_attr_ex *attr_ex,
					    struct ruedv_qp_init_attr *attr,
					    uint32_t inlen)
{
	struct rue_create_qp_cmd drv = {};
	struct rue_context *ctx;
	int ret;

	if (!rue_is_rue_ctx(ibctx)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	ctx = to_rctx(ibctx);
	if (!attr_ex || attr_ex->qp_type != IBV_QPT_DRIVER) {
		rue_err(&ctx->vctx, "a UET QP is an IBV_QPT_DRIVER QP\n");
		errno = EINVAL;
		return NULL;
	}
	ret = rue_check_uet_init(ctx, attr, inlen);
	if (ret) {
		errno = ret;
		return NULL;
	}
	drv.comp_mask = RUE_CREATE_QP_CMD_DRIVER | RUE_CREATE_QP_CMD_UET;
	drv.driver_qp_type = RUE_DRIVER_QPT_UET;
	drv.uet_job_id = attr->job_id;
	drv.uet_mode = attr->mode;
	drv.uet_entropy = attr->entropy;
	drv.uet_resource_index = attr->resource_index;
	return rue_create_qp_drv(ibctx, attr_ex, &drv);
}

RUEDV_EXPORT int ruedv_query_qp(struct ibv_qp *ibqp, struct ruedv_qp_attr *attr,
				uint32_t inlen)
{
	struct rue_qp *qp;

	if (!ibqp || !rue_is_rue_ctx(ibqp->context))
		return EOPNOTSUPP;
	if (!attr || inlen < RUE_FIELD_END(struct ruedv_qp_attr, mode))
		return EINVAL;
	qp = to_rqp(ibqp);
	if (!qp->uet)
		return EINVAL;
	memset(attr, 0, inlen);
	attr->addr = qp->uet_addr;
	attr->job_id = qp->uet_job_id;
	attr->mode = qp->uet_mode;
	return 0;
}
