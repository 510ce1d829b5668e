// SPDX-License-Identifier: GPL-2.0
/*
 * Verbs entry points for user contexts and protection domains.  Each
 * object file (cq.c, qp_verbs.c, mr.c, ...) has its own ops; link.c
 * assembles them into the device.
 */
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/rue-abi.h>

#include "caps.h"
#include "queue.h"
#include "verbs.h"

static int rue_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct rue_alloc_ucontext_resp resp = {
		.ring_abi = RUE_RING_ABI,
		.comp_mask = RUE_ALLOC_UCONTEXT_RESP_UET,
		.caps = RUE_CTX_CAP_SQ_DOORBELL_SKIP | RUE_CTX_CAP_CQ_NOTIFY_RING |
			RUE_CTX_CAP_UET,
		.max_inline = RUE_MAX_INLINE,
		.max_sge = RUE_MAX_SGE,
		/* what UET QPs do */
		.uet_caps = RUE_UET_CAP_RUD | RUE_UET_CAP_ROD |
			    RUE_UET_CAP_SEND | RUE_UET_CAP_WRITE |
			    RUE_UET_CAP_READ |
			    RUE_UET_CAP_IMM64 | RUE_UET_CAP_KEY64 |
			    RUE_UET_CAP_JOB_MR | RUE_UET_CAP_UUD,
		.uet_max_msg = RUE_MAX_MSG_BYTES,
		.uet_max_entropy = 255,
	};
	struct rue_alloc_ucontext_cmd cmd = {};
	int err;

	if (udata->inlen) {
		err = ib_copy_from_udata(&cmd, udata,
					 min(sizeof(cmd), udata->inlen));
		if (err)
			return err;
		if (cmd.comp_mask)
			return -EOPNOTSUPP;
	}
	if (udata->outlen)
		return ib_copy_to_udata(udata, &resp,
					min(sizeof(resp), udata->outlen));
	return 0;
}

static void rue_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

/*
 * Having this op lets the core tear down a device while processes still
 * hold it open: it destroys their objects and zaps their mappings (all made
 * with rdma_user_mmap_io()), instead of waiting for them to exit.
 */
static void rue_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

static int rue_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int rue_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static const struct ib_device_ops rue_verbs_ops = {
	.alloc_pd = rue_alloc_pd,
	.alloc_ucontext = rue_alloc_ucontext,
	.dealloc_pd = rue_dealloc_pd,
	.dealloc_ucontext = rue_dealloc_ucontext,
	.disassociate_ucontext = rue_disassociate_ucontext,
	.mmap = rue_mmap,
	.mmap_free = rue_mmap_free,

	INIT_RDMA_OBJ_SIZE(ib_pd, rue_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, rue_ucontext, ibuc),
};

void rue_verbs_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_verbs_ops);
}
