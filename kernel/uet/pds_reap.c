// SPDX-License-Identifier: GPL-2.0
/*
 * UET PDS, the end of idle target PDCs (UE 1.0.1 3.5.8: only the
 * initiator closes; the target may ask).  A delayed work every
 * RUE_PDC_IDLE / 2 asks the initiator of a target PDC idle for half of
 * RUE_PDC_IDLE to close, with a CTRL CLOSE_REQ, so that an initiator
 * whose own idle time is longer than ours closes in order rather than
 * finding its PDC gone (INV_DPDCID); one idle for all of it is freed
 * (the initiator went away).
 *
 * Locking: the table (rdev->uet.tgt) under rdev->uet.lock, decisions
 * made under it; a PDC's sends under its own lock, after it.
 */
#include <linux/workqueue.h>
#include <rdma/rue-abi.h>

#include "pdc.h"
#include "pds_reap.h"
#include "pds_tgt.h"
#include "uet.h"
#include "uet_stats.h"
#include "core/device.h"
#include "net/xmit.h"

#define RUE_PDC_IDLE		(5 * HZ)	/* target side without traffic */

/*
 * Ask the initiator of target PDC @pdc (referenced) to close: a CTRL
 * CLOSE_REQ, its PSN the next one expected (a CTRL packet has one; the
 * initiator reads none from a CLOSE_REQ), not acknowledged and not
 * resent - the reaper closes the PDC anyway if nothing answers.  A
 * forged SYN's PDC sends one to the address it claimed, as its ACK did:
 * a packet for a packet, never more.
 */
static void rue_pdc_tgt_close_req(struct rue_pdc *pdc)
{
	struct rue_pds_ctrl *c;
	struct sk_buff *skb;

	spin_lock_bh(&pdc->lock);
	if (pdc->dead)
		goto out;
	skb = rue_pds_ctrl_alloc(pdc, RUE_PDS_CTL_CLOSE_REQ, 0, &c);
	if (!skb)
		goto out;
	c->psn = cpu_to_be32(pdc->rx_next);
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_CLOSE_REQS_SENT);
	rue_pds_xmit(pdc, skb, pdc->rx_next, false);
out:
	spin_unlock_bh(&pdc->lock);
}

/*
 * Every RUE_PDC_IDLE / 2: ask the initiators of the target PDCs idle for
 * half of RUE_PDC_IDLE to close, once per quiet spell (close_req_rx;
 * traffic after it makes a new one), and close those idle for all of it
 * that were asked.  A late tick (a delayed work is only ever late) can
 * find a PDC already past RUE_PDC_IDLE that the tick before found short
 * of half of it: it is asked now and closed on the next tick, never
 * closed unasked.
 */
static void rue_pds_reap(struct work_struct *work)
{
	struct rue_uet_dev *u = container_of(to_delayed_work(work),
					     struct rue_uet_dev, reaper);
	struct rue_pdc *pdc, *next;
	struct hlist_node *tmp;
	unsigned long rx;
	LIST_HEAD(idle);
	LIST_HEAD(ask);
	int bkt;

	/*
	 * Out of the table under its lock: rue_pdc_tgt_free() then backs
	 * off.  Those to ask stay in it, referenced; a CLOSE that frees one
	 * meanwhile leaves it dead, and the request unsent.
	 */
	spin_lock_bh(&u->lock);
	hash_for_each_safe(u->tgt, bkt, tmp, pdc, tgt_node) {
		rx = READ_ONCE(pdc->last_rx);
		if (!time_after(jiffies, rx + RUE_PDC_IDLE / 2))
			continue;
		if (pdc->close_req_rx == rx) {
			if (!time_after(jiffies, rx + RUE_PDC_IDLE))
				continue;
			rue_pdc_tgt_unlink(u, pdc);
			list_add(&pdc->gc_node, &idle);
		} else {
			pdc->close_req_rx = rx;
			refcount_inc(&pdc->ref);
			list_add(&pdc->gc_node, &ask);
		}
	}
	spin_unlock_bh(&u->lock);
	list_for_each_entry_safe(pdc, next, &ask, gc_node) {
		rue_pdc_tgt_close_req(pdc);
		rue_pdc_put(pdc);
	}
	list_for_each_entry_safe(pdc, next, &idle, gc_node) {
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_IDLE_CLOSED);
		rue_pdc_tgt_close(pdc);
	}
	schedule_delayed_work(&u->reaper, RUE_PDC_IDLE / 2);
}

/**
 * rue_pds_reaper_start() - the reaper of a device's idle target PDCs
 * @rdev: the device, its table initialized
 */
void rue_pds_reaper_start(struct rue_dev *rdev)
{
	INIT_DELAYED_WORK(&rdev->uet.reaper, rue_pds_reap);
	schedule_delayed_work(&rdev->uet.reaper, RUE_PDC_IDLE / 2);
}

/**
 * rue_pds_reaper_stop() - stop the reaper and close every target PDC
 * @rdev: the device, every QP gone
 */
void rue_pds_reaper_stop(struct rue_dev *rdev)
{
	struct rue_uet_dev *u = &rdev->uet;
	struct hlist_node *tmp;
	struct rue_pdc *pdc;
	int bkt;

	cancel_delayed_work_sync(&u->reaper);
	hash_for_each_safe(u->tgt, bkt, tmp, pdc, tgt_node) {
		rue_pdc_tgt_unlink(u, pdc);
		rue_pdc_tgt_close(pdc);
	}
}
