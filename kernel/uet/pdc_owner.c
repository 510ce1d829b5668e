// SPDX-License-Identifier: GPL-2.0
/*
 * Who holds a device's PDCIDs.  A PDCID is 16 bits: 65,535 per device,
 * shared by the initiator PDCs of every QP and the target PDCs (at most
 * rue.uet_max_target_pdcs).  rue.uet_max_qp_pdcs bounds one QP and the
 * memory cgroups pay for PDCs, but one user with many QPs sending to
 * ever new addresses could still hold nearly every PDCID, for as long
 * as its SYNs' RTOs ran, and other users' QPs then found none (issue 15).
 * So the initiator PDCs of the QPs a user made on a device are bounded
 * by rue.uet_max_user_pdcs, a quarter of the space by default.  The
 * user is the creating process's effective kuid: a user namespace of its
 * own does not make a new one.
 *
 * A QP refused at that bound waits on its owner's list, referenced, and
 * the next of the owner's PDCs to go kicks it; a QP being destroyed
 * leaves the list first.  Until then it sends nothing new, as at its
 * own bound (its other PDCs' traffic goes on).
 *
 * Locking: the owners of a device under rdev->uet.owner_lock (a mutex:
 * QPs are made and freed in process context); an owner's count and
 * waiting QPs under its spinlock, taken inside a QP's req.lock.
 */
#include <linux/cred.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "pdc_owner.h"
#include "ses.h"
#include "uet_stats.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"

static unsigned int uet_max_user_pdcs = 16384;
module_param(uet_max_user_pdcs, uint, 0644);
MODULE_PARM_DESC(uet_max_user_pdcs, "UET: initiator PDCs the QPs of one user hold at once on a device; more wait (default 16384)");

struct rue_pdc_owner {
	struct hlist_node node;		/* rdev->uet.owners; owner_lock */
	kuid_t uid;
	unsigned int qps;		/* QPs it made; owner_lock */
	spinlock_t lock;
	unsigned int nr;		/* their initiator PDCs; lock */
	struct list_head waiters;	/* QPs refused a PDC; lock */
};

/**
 * rue_pdc_owner_get() - the owner of a new UET QP: the current user
 * @qp: the QP, in the creating process
 *
 * Return: 0, or -ENOMEM.
 */
int rue_pdc_owner_get(struct rue_qp *qp)
{
	struct rue_uet_dev *u = &qp->rdev->uet;
	kuid_t uid = current_euid();
	u32 h = __kuid_val(uid);
	struct rue_pdc_owner *o;

	INIT_LIST_HEAD(&qp->uet.pds.owner_wait);
	mutex_lock(&u->owner_lock);
	hash_for_each_possible(u->owners, o, node, h)
		if (uid_eq(o->uid, uid))
			goto found;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o) {
		mutex_unlock(&u->owner_lock);
		return -ENOMEM;
	}
	o->uid = uid;
	spin_lock_init(&o->lock);
	INIT_LIST_HEAD(&o->waiters);
	hash_add(u->owners, &o->node, h);
found:
	o->qps++;
	mutex_unlock(&u->owner_lock);
	qp->uet.pds.owner = o;
	return 0;
}

/**
 * rue_pdc_owner_put() - a QP is freed: its owner loses it
 * @qp: the QP, its PDCs gone and off the waiting list
 */
void rue_pdc_owner_put(struct rue_qp *qp)
{
	struct rue_uet_dev *u = &qp->rdev->uet;
	struct rue_pdc_owner *o = qp->uet.pds.owner;

	if (!o)
		return;
	qp->uet.pds.owner = NULL;
	mutex_lock(&u->owner_lock);
	if (!--o->qps) {
		WARN_ON(o->nr || !list_empty(&o->waiters));
		hash_del(&o->node);
		kfree(o);
	}
	mutex_unlock(&u->owner_lock);
}

/**
 * rue_pdc_owner_charge() - may @qp open one more PDC?
 * @qp: the QP, req.lock held
 *
 * Return: true, counted; false at the owner's bound: @qp is kicked when
 * one of the owner's PDCs goes.
 */
bool rue_pdc_owner_charge(struct rue_qp *qp)
{
	struct rue_pdc_owner *o = qp->uet.pds.owner;
	bool ok;

	spin_lock(&o->lock);
	ok = o->nr < max(READ_ONCE(uet_max_user_pdcs), 1U);
	if (ok) {
		o->nr++;
	} else if (list_empty(&qp->uet.pds.owner_wait)) {
		refcount_inc(&qp->refcnt);
		list_add_tail(&qp->uet.pds.owner_wait, &o->waiters);
		rue_uet_stat_inc(qp->rdev, RUE_USTAT_PDC_USER_WAITS);
	}
	spin_unlock(&o->lock);
	return ok;
}

/**
 * rue_pdc_owner_uncharge() - one of @qp's PDCs went (or was not made)
 * @qp: the QP, req.lock held
 *
 * The QP waiting longest for one is kicked.
 */
void rue_pdc_owner_uncharge(struct rue_qp *qp)
{
	struct rue_pdc_owner *o = qp->uet.pds.owner;
	struct rue_qp *next;

	spin_lock(&o->lock);
	o->nr--;
	next = list_first_entry_or_null(&o->waiters, struct rue_qp,
					uet.pds.owner_wait);
	if (next)
		list_del_init(&next->uet.pds.owner_wait);
	spin_unlock(&o->lock);
	if (next) {
		rue_qp_kick(next);
		rue_qp_put(next);
	}
}

/**
 * rue_pdc_owner_unwait() - a QP being destroyed stops waiting
 * @qp: the QP, in the error state: it asks for no PDC again
 */
void rue_pdc_owner_unwait(struct rue_qp *qp)
{
	struct rue_pdc_owner *o = qp->uet.pds.owner;
	bool was;

	if (!o)
		return;
	spin_lock_bh(&o->lock);
	was = !list_empty(&qp->uet.pds.owner_wait);
	list_del_init(&qp->uet.pds.owner_wait);
	spin_unlock_bh(&o->lock);
	if (was)
		rue_qp_put(qp);
}
