/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive queue consumer.
 */
#ifndef _RUE_RQ_H
#define _RUE_RQ_H

#include <linux/types.h>

struct ib_pd;
struct rue_ksge;
struct rue_qp;
struct rue_ring;

struct rue_rqe_info {
	u64 wr_id;
	u32 num_sge;
	u32 len;			/* capacity of the SGEs */
	u8 status;			/* IB_WC_LOC_PROT_ERR: bad lkey */
};

void rue_rqe_read(const struct rue_ring *ring, u32 index, struct ib_pd *pd,
		  u32 max_sge, struct rue_ksge *sg, struct rue_rqe_info *info);
int rue_rq_take(struct rue_qp *qp, struct rue_ksge *sg,
		struct rue_rqe_info *info);
void rue_rq_complete(struct rue_qp *qp, const struct rue_rqe_info *info,
		     u8 status, u8 opcode, u32 byte_len, u8 flags, u64 imm,
		     u32 src_qp, bool solicited);
void rue_rq_flush(struct rue_qp *qp);
void rue_rq_reset(struct rue_qp *qp);

#endif /* _RUE_RQ_H */
