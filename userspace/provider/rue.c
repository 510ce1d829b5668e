// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * librue registration: how libibverbs finds rue devices and opens them.
 * The verbs themselves are in verbs.c and the object files beside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rue-abi.h>

#include "rue.h"

/*
 * The kernel registers rue devices with RDMA_DRIVER_UNKNOWN (an
 * out-of-tree driver cannot add an id), so neither the driver id nor the
 * device name (users choose it) identifies them.  The device's hca_type
 * file does.
 */
static bool rue_match_device(struct verbs_sysfs_dev *sysfs_dev)
{
	char buf[32];

	if (ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sysfs_dev,
				      "hca_type") <= 0)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return strcmp(buf, RUE_HCA_TYPE) == 0;
}

static void rue_free_context(struct ibv_context *ibctx);

static const struct verbs_context_ops rue_ctx_ops = {
	.alloc_mw = rue_alloc_mw,
	.alloc_pd = rue_alloc_pd,
	.attach_mcast = ibv_cmd_attach_mcast,
	.bind_mw = rue_bind_mw,
	.create_ah = rue_create_ah,
	.create_cq = rue_create_cq,
	.create_cq_ex = rue_create_cq_ex,
	.create_qp = rue_create_qp,
	.create_qp_ex = rue_create_qp_ex,
	.create_srq = rue_create_srq,
	.dealloc_mw = rue_dealloc_mw,
	.dealloc_pd = rue_dealloc_pd,
	.dereg_mr = rue_dereg_mr,
	.destroy_ah = rue_destroy_ah,
	.destroy_cq = rue_destroy_cq,
	.destroy_qp = rue_destroy_qp,
	.destroy_srq = rue_destroy_srq,
	.detach_mcast = ibv_cmd_detach_mcast,
	.free_context = rue_free_context,
	.modify_cq = rue_modify_cq,
	.modify_qp = rue_modify_qp,
	.modify_srq = rue_modify_srq,
	.poll_cq = rue_poll_cq,
	.post_recv = rue_post_recv,
	.post_send = rue_post_send,
	.post_srq_recv = rue_post_srq_recv,
	.query_device_ex = rue_query_device_ex,
	.query_port = rue_query_port,
	.query_qp = rue_query_qp,
	.query_rt_values = rue_query_rt_values,
	.query_srq = rue_query_srq,
	.reg_mr = rue_reg_mr,
	.req_notify_cq = rue_req_notify_cq,
	.rereg_mr = rue_rereg_mr,
	.resize_cq = rue_resize_cq,
};

struct rue_get_context_resp {
	struct ib_uverbs_get_context_resp ibv_resp;
	struct rue_alloc_ucontext_resp drv;
};

struct rue_get_context_cmd {
	struct ibv_get_context ibv_cmd;
	struct rue_alloc_ucontext_cmd drv;
};

static struct verbs_context *rue_alloc_context(struct ibv_device *ibdev,
					       int cmd_fd, void *private_data)
{
	struct rue_get_context_cmd cmd = {};
	struct rue_get_context_resp resp = {};
	struct rue_context *ctx;

	ctx = _verbs_init_and_alloc_context(ibdev, cmd_fd, sizeof(*ctx),
					    &((struct rue_context *)NULL)->vctx,
					    0 /* RDMA_DRIVER_UNKNOWN */);
	if (!ctx)
		return NULL;

	if (ibv_cmd_get_context(&ctx->vctx, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp)))
		goto err_uninit;
	if (resp.drv.ring_abi != RUE_RING_ABI) {
		rue_err(&ctx->vctx, "kernel ring ABI %u, librue speaks %u\n",
			resp.drv.ring_abi, RUE_RING_ABI);
		errno = EPROTONOSUPPORT;
		goto err_uninit;
	}
	ctx->caps = resp.drv.caps;
	ctx->max_inline = resp.drv.max_inline;
	ctx->max_sge = resp.drv.max_sge;
	/* Older kernels leave the UET fields out: no UET QPs then. */
	if ((resp.drv.comp_mask & RUE_ALLOC_UCONTEXT_RESP_UET) &&
	    (resp.drv.caps & RUE_CTX_CAP_UET)) {
		ctx->uet_caps = resp.drv.uet_caps;
		ctx->uet_max_msg = resp.drv.uet_max_msg;
		ctx->uet_max_entropy = resp.drv.uet_max_entropy;
	}

	verbs_set_ops(&ctx->vctx, &rue_ctx_ops);
	return &ctx->vctx;

err_uninit:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	return NULL;
}

static void rue_free_context(struct ibv_context *ibctx)
{
	struct rue_context *ctx = to_rctx(ibctx);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static struct verbs_device *rue_alloc_device(struct verbs_sysfs_dev *sysfs_dev)
{
	struct rue_device *dev;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	return &dev->vdev;
}

static void rue_uninit_device(struct verbs_device *vdev)
{
	free(container_of(vdev, struct rue_device, vdev));
}

/*
 * Nothing to match by id or name; rue_match_device() decides.  The table
 * must exist all the same: libibverbs walks every provider's table when
 * it matches other drivers' devices by id.
 */
static const struct verbs_match_ent rue_match_table[] = {
	{},
};

static const struct verbs_device_ops rue_dev_ops = {
	.name = "rue",
	.match_min_abi_version = RUE_UVERBS_ABI_VERSION,
	.match_max_abi_version = RUE_UVERBS_ABI_VERSION,
	.match_table = rue_match_table,
	.match_device = rue_match_device,
	.alloc_device = rue_alloc_device,
	.uninit_device = rue_uninit_device,
	.alloc_context = rue_alloc_context,
};

/*
 * Whether @ctx is a rue device's, for the ruedv_* entry points: the
 * device's ops are ours (as efadv checks its devices).
 */
bool rue_is_rue_ctx(const struct ibv_context *ctx)
{
	const struct verbs_device *vdev;

	if (!ctx || !ctx->device)
		return false;
	vdev = container_of(ctx->device, struct verbs_device, device);
	return vdev->ops == &rue_dev_ops;
}

/* libibverbs dlopen()s us; register at load time. */
static void __attribute__((constructor)) rue_register_driver(void)
{
	verbs_register_driver_34(&rue_dev_ops);
}
