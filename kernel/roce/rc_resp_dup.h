/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC responder, duplicate requests.
 */
#ifndef _RUE_RC_RESP_DUP_H
#define _RUE_RC_RESP_DUP_H

#include <linux/skbuff.h>
#include "rc_resp.h"

struct rue_qp;
struct rue_pkt;

bool rue_resp_trim(struct rue_qp *qp, struct rue_pkt *pkt);
enum rue_resp_result rue_resp_dup(struct rue_qp *qp, struct rue_pkt *pkt,
				  struct sk_buff_head *out);

#endif /* _RUE_RC_RESP_DUP_H */
