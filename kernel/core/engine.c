// SPDX-License-Identifier: GPL-2.0
/*
 * The transmit engine: when and where a QP's transport builds and sends
 * what it has to send.
 *
 * rue_qp_run() has the QP's transport send what it can (its tx hook),
 * within the budgets of rate control (cc.c) and of the device's transmit
 * queue (txq.c).  One context at a time runs it (RUE_TX_RUNNING); a
 * caller that finds it busy leaves RUE_TX_PENDING for the runner, so no
 * request to run is lost.  It runs inline where that is cheapest (a
 * doorbell system call, a received ACK in softirq) and moves to a
 * device workqueue when a run exhausts its budget, so one busy QP cannot
 * hold a CPU in softirq.
 *
 * Bulk.  A kick (a timer, room in the device's queue, a QP pinned to
 * another CPU) runs from the device's high-priority workqueue: the first
 * packets of an answer should not wait behind the CPU's other tasks.
 * What a run leaves over - a long message's rest - carries on from
 * rdev->bulk_wq, at normal priority, where the scheduler shares the CPU
 * with ksoftirqd.  Carried on at high priority (nice -20), the 1024
 * packets answering a 1 MiB READ starved ksoftirqd on 6.1, whose
 * do_softirq() leaves network softirqs to it once it is woken (6.5
 * reverted that): netem's queue and the veth backlog on that CPU, the
 * packets' own way out, waited until the whole answer was built, 65 ms
 * in a TCG guest - about perftest's 67 ms timeout, so the requester
 * asked again and the responder built it all again.  A trace showed a
 * requester receiving nothing for 470 ms while its responder built 5,000
 * packets, and such READs under netem's loss and delay ran out of
 * retries (1 in 60 cases on 6.1; none in 400 with this and rc_comp.c's
 * early answers).  User threads on that CPU were starved the same way.
 */
#include <linux/moduleparam.h>
#include <linux/sched/stat.h>

#include "device.h"
#include "engine.h"
#include "qp.h"
#include "sq.h"
#include "transport.h"
#include "cc/cc.h"
#include "net/txq.h"

#define RUE_TX_BUDGET		64	/* packets per inline run */
#define RUE_TX_BUDGET_WORK	256	/* per run from the workqueue */

static unsigned int tx_poll_us = 50;
module_param(tx_poll_us, uint, 0644);
MODULE_PARM_DESC(tx_poll_us,
		 "after a doorbell, poll the send queue of a QP with a local peer for this many us without a post (0: never)");

/* A poller that found its CPU busy: none for this long. */
#define RUE_POLL_BACKOFF	msecs_to_jiffies(10)

/*
 * Return: whether the transport used all the budget it was given, which
 * rate control or the device's queue may have cut below @budget - then
 * it has more to send, and no ACK may come to say so (UC, UD): the
 * caller runs it again, and a run that finds no budget waits for its
 * kick.
 */
static bool rue_qp_tx(struct rue_qp *qp, int budget)
{
	int n;

	budget = rue_cc_tx_budget(qp, budget);
	if (!budget)
		return false;	/* kicked by the pacing timer */
	rue_txq_unpin(qp);
	budget = rue_txq_room(qp, budget);
	if (!budget)
		return false;	/* kicked when the device's queue has room */
	n = qp->xport->tx(qp, budget);
	rue_qp_notify(qp);
	return n >= budget;
}

/*
 * Where the engine's work runs: the device's transmit CPU for a QP whose
 * packets must keep their order, or that has packets queued there (txq.c,
 * Order), else the CPU queueing it.
 */
static int rue_qp_tx_cpu(const struct rue_qp *qp)
{
	if ((qp->xport->flags & RUE_XPORT_IN_ORDER) ||
	    test_bit(RUE_TX_PINNED, &qp->tx_bits))
		return qp->rdev->txq.cpu;
	return WORK_CPU_UNBOUND;
}

static void rue_qp_run_budget(struct rue_qp *qp, int budget)
{
	set_bit(RUE_TX_PENDING, &qp->tx_bits);
	while (!test_and_set_bit_lock(RUE_TX_RUNNING, &qp->tx_bits)) {
		while (test_and_clear_bit(RUE_TX_PENDING, &qp->tx_bits)) {
			if (rue_qp_tx(qp, budget)) {
				/* More to do: the bulk workqueue carries on. */
				set_bit(RUE_TX_PENDING, &qp->tx_bits);
				clear_bit_unlock(RUE_TX_RUNNING, &qp->tx_bits);
				queue_work_on(rue_qp_tx_cpu(qp),
					      qp->rdev->bulk_wq, &qp->bulk_work);
				return;
			}
		}
		clear_bit_unlock(RUE_TX_RUNNING, &qp->tx_bits);
		/* clear RUNNING before looking at PENDING: see rue_qp_run() */
		smp_mb__after_atomic();
		if (!test_bit(RUE_TX_PENDING, &qp->tx_bits))
			break;
	}
}

/**
 * rue_qp_run() - run the transmit engine now, in the caller's context
 * @qp: the QP
 *
 * Any context but hard interrupt or interrupts disabled.
 */
void rue_qp_run(struct rue_qp *qp)
{
	int cpu = rue_qp_tx_cpu(qp);

	if (cpu == WORK_CPU_UNBOUND) {
		rue_qp_run_budget(qp, RUE_TX_BUDGET);
		return;
	}
	/* on its CPU, and kept there while it runs; elsewhere it moves */
	migrate_disable();
	if (smp_processor_id() == cpu)
		rue_qp_run_budget(qp, RUE_TX_BUDGET);
	else
		rue_qp_kick(qp);
	migrate_enable();
}

/* Run the transmit engine soon, from the workqueue. */
void rue_qp_kick(struct rue_qp *qp)
{
	set_bit(RUE_TX_PENDING, &qp->tx_bits);
	queue_work_on(rue_qp_tx_cpu(qp), qp->rdev->wq, &qp->tx_work);
}

static void rue_qp_tx_work(struct work_struct *work)
{
	struct rue_qp *qp = container_of(work, struct rue_qp, tx_work);

	rue_qp_run_budget(qp, RUE_TX_BUDGET_WORK);
}

static void rue_qp_bulk_work(struct work_struct *work)
{
	struct rue_qp *qp = container_of(work, struct rue_qp, bulk_work);

	rue_qp_run_budget(qp, RUE_TX_BUDGET_WORK);
}

/*
 * Neither work item queued nor running.  Each may queue the other (a run
 * leaves its rest to bulk_work; a run may kick), so cancelling one and
 * then the other is not enough: again until tx_work stayed idle.
 */
static void rue_qp_tx_cancel(struct rue_qp *qp)
{
	do {
		cancel_work_sync(&qp->tx_work);
		cancel_work_sync(&qp->bulk_work);
	} while (work_pending(&qp->tx_work));
}

/*
 * Polling the send queue.  A user QP's doorbell runs the engine in the
 * poster's system call, which is cheapest for one message at a time.  A
 * stream of small messages to a local peer (delivered in memory, no
 * wire) is then bound by one CPU doing the application, a system call
 * per post and the whole transport.  So after a doorbell such a QP is
 * also watched by a poller from the unbound workqueue - on an idle CPU
 * if there is one - which keeps the SQ armed (posts need no doorbell,
 * RUE_SQ_F_KERNEL_ARMED) and runs the engine whenever the producer index
 * moves: the application and the transport then run on two CPUs.
 *
 * The poller stops after tx_poll_us without a post, and at once when its
 * CPU has other work (single_task_running(), need_resched()); then none
 * starts for RUE_POLL_BACKOFF, so where every CPU is busy (both ends of
 * a latency test spin) it costs one wakeup per backoff, not per post.
 *
 * Only small messages to local peers.  Messages of several packets
 * spend little per post on the system call, and runs on two CPUs (the
 * poller's, and an ACK's or a timer's) put one QP's packets into two
 * per-CPU queues, local (loop.c) or on a wire (backlogs, transmit
 * queues), where they can be reordered: ib_send_bw of 64 KiB messages
 * on 6.12 ran into an RNR NAK and a retransmission timeout and lost
 * two thirds of its bandwidth.  A WQE larger than the path MTU stops
 * the poller.
 *
 * Stopping: RUE_TX_POLL is cleared before a last run, which disarms the
 * SQ and looks at the producer index once more (the handshake in the
 * ABI header), so no post is left behind.
 */
static void rue_qp_poll_work(struct work_struct *work)
{
	struct rue_qp *qp = container_of(work, struct rue_qp, poll_work);
	const u32 *prodp = &qp->req.ring.hdr->prod;
	u64 idle_ns = (u64)READ_ONCE(tx_poll_us) * NSEC_PER_USEC;
	u64 last = ktime_get_ns();
	u32 prod = READ_ONCE(*prodp) - 1, p;

	while (READ_ONCE(qp->state) == IB_QPS_RTS) {
		if (!single_task_running() || need_resched()) {
			WRITE_ONCE(qp->poll_after, jiffies + RUE_POLL_BACKOFF);
			break;
		}
		/* the index before the run: a post after it is seen next time */
		p = READ_ONCE(*prodp);
		if (p != prod) {
			prod = p;
			rue_qp_run_budget(qp, RUE_TX_BUDGET_WORK);
			if (!READ_ONCE(qp->req.last_small))
				break;
			last = ktime_get_ns();
			continue;
		}
		if (ktime_get_ns() - last > idle_ns)
			break;
		cpu_relax();
	}
	clear_bit(RUE_TX_POLL, &qp->tx_bits);
	/* POLL cleared before the run that disarms looks at the ring */
	smp_mb__after_atomic();
	rue_qp_run(qp);
}

/* After a doorbell: have a poller watch the SQ, if that pays. */
static void rue_qp_poll_start(struct rue_qp *qp)
{
	if (!READ_ONCE(tx_poll_us) || !qp->user ||
	    !(qp->xport->flags & RUE_XPORT_SQ_POLL) || !READ_ONCE(qp->loop) ||
	    !READ_ONCE(qp->req.last_small) ||
	    READ_ONCE(qp->state) != IB_QPS_RTS ||
	    time_before(jiffies, READ_ONCE(qp->poll_after)) ||
	    test_and_set_bit(RUE_TX_POLL, &qp->tx_bits))
		return;
	spin_lock_bh(&qp->req.lock);
	rue_sq_set_armed(qp, true);
	spin_unlock_bh(&qp->req.lock);
	queue_work(system_unbound_wq, &qp->poll_work);
}

/**
 * rue_qp_doorbell() - a user QP's send doorbell: run the engine now and,
 * for a local peer, poll for the posts that follow
 * @qp: the QP
 *
 * Process context.
 */
void rue_qp_doorbell(struct rue_qp *qp)
{
	rue_qp_run(qp);
	rue_qp_poll_start(qp);
}

/* Creation: the engine's work items. */
void rue_qp_engine_init(struct rue_qp *qp)
{
	INIT_WORK(&qp->tx_work, rue_qp_tx_work);
	INIT_WORK(&qp->bulk_work, rue_qp_bulk_work);
	INIT_WORK(&qp->poll_work, rue_qp_poll_work);
}

/**
 * rue_qp_engine_stop() - nothing runs the QP's engine after this
 * @qp: a QP being destroyed: unpublished, in the error state, no
 *	reference left
 */
void rue_qp_engine_stop(struct rue_qp *qp)
{
	rue_qp_stop(qp);
	/* in ERR a poller stops at once; its last run may queue tx_work */
	cancel_work_sync(&qp->poll_work);
	rue_qp_tx_cancel(qp);
	/* a run before the cancel may have armed pacing: its kick is next */
	rue_cc_qp_stop(qp);
	/* In ERR it waits no more; then no write_space call kicks it. */
	rue_txq_cancel(qp);
	rue_qp_tx_cancel(qp);
	cancel_work_sync(&qp->err_work);
	rue_qp_stop(qp);
	/* Nothing builds packets for it now: what waits to go goes (txq.c). */
	rue_txq_purge(qp);
}
