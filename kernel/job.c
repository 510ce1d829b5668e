// SPDX-License-Identifier: GPL-2.0
/*
 * UET jobs (UE 1.0.1 §3.4: every SES request carries a 24-bit JobID, and
 * a target delivers it only into resources of that job).
 *
 * Each device keeps a table of the jobs an administrator has granted
 * (RUE_CMD_JOB_NEW), each naming at most one user and one group that may
 * use it.  A UET QP binds to one job at creation (rue_job_bind), which
 * succeeds only for a caller the job admits, and holds that bind until it
 * is destroyed (rue_job_unbind).  A job cannot be deleted while bound, so
 * a QP's job stays granted for as long as the QP lives.
 *
 * Job ID 0 is reserved: rue uses it for "no job" (an MR not restricted to
 * a job, a QP that is not UET), so it can be neither granted nor bound.
 *
 * Locking: jobs->lock, a mutex, covers the table and every bound count,
 * so that a bind and a delete of the same job are ordered and the count
 * is exact.  Everything here runs in process context (netlink, QP
 * creation and destruction); nothing on the data path calls in: a QP
 * keeps its job ID.  The xarray's own lock is taken inside the mutex.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/slab.h>

#include "device.h"
#include "job.h"

struct rue_job {
	struct rue_job_grant grant;
	u32 bound;			/* QPs bound; under jobs->lock */
};

static bool rue_job_id_ok(u32 id)
{
	return id && id <= RUE_JOB_ID_MAX;
}

void rue_jobs_init(struct rue_jobs *jobs)
{
	mutex_init(&jobs->lock);
	xa_init(&jobs->table);
}

/*
 * At dealloc_driver: the core has destroyed every QP, so no job is
 * bound, and no netlink request holds the device any more.
 */
void rue_jobs_destroy(struct rue_jobs *jobs)
{
	struct rue_job *job;
	unsigned long id;

	xa_for_each(&jobs->table, id, job) {
		WARN_ON_ONCE(job->bound);
		kfree(job);
	}
	xa_destroy(&jobs->table);
	mutex_destroy(&jobs->lock);
}

/**
 * rue_job_add() - grant a job on a device
 * @rdev: the device
 * @id: the job ID, 1 to RUE_JOB_ID_MAX
 * @grant: who besides CAP_NET_ADMIN may bind to it
 *
 * The caller has checked that its requester may grant jobs.
 *
 * Return: 0, -EINVAL for a bad ID, -EEXIST if the device has the job,
 * -ENOMEM.
 */
int rue_job_add(struct rue_dev *rdev, u32 id, const struct rue_job_grant *grant)
{
	struct rue_jobs *jobs = &rdev->jobs;
	struct rue_job *job;
	int err;

	if (!rue_job_id_ok(id))
		return -EINVAL;
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	job->grant = *grant;

	mutex_lock(&jobs->lock);
	err = xa_insert(&jobs->table, id, job, GFP_KERNEL);
	mutex_unlock(&jobs->lock);
	if (err) {
		kfree(job);
		return err == -EBUSY ? -EEXIST : err;
	}
	rue_dbg_dev(rdev, "job %u granted\n", id);
	return 0;
}

/**
 * rue_job_del() - revoke a job that no QP is bound to
 * @rdev: the device
 * @id: the job ID
 *
 * Return: 0, -ENOENT if the device has no such job, -EBUSY while QPs are
 * bound to it.
 */
int rue_job_del(struct rue_dev *rdev, u32 id)
{
	struct rue_jobs *jobs = &rdev->jobs;
	struct rue_job *job;
	int err = 0;

	if (!rue_job_id_ok(id))
		return -ENOENT;
	mutex_lock(&jobs->lock);
	job = xa_load(&jobs->table, id);
	if (!job)
		err = -ENOENT;
	else if (job->bound)
		err = -EBUSY;
	else
		xa_erase(&jobs->table, id);
	mutex_unlock(&jobs->lock);
	if (err)
		return err;
	kfree(job);
	rue_dbg_dev(rdev, "job %u revoked\n", id);
	return 0;
}

/*
 * Whether current may use @job: its effective user is the job's user, or
 * it is in the job's group (effective or supplementary), or it has
 * CAP_NET_ADMIN over the device's network namespace.  The capability is
 * tried last, so that a caller the grant admits does not show up in the
 * audit log as having used it.
 */
static bool rue_job_admits(const struct rue_dev *rdev,
			   const struct rue_job_grant *grant)
{
	if (uid_valid(grant->uid) && uid_eq(current_euid(), grant->uid))
		return true;
	if (gid_valid(grant->gid) && in_egroup_p(grant->gid))
		return true;
	return ns_capable(rdev->user_ns, CAP_NET_ADMIN);
}

/**
 * rue_job_bind() - let current's new QP use job @id
 * @rdev: the device
 * @id: the job ID
 *
 * Succeeds if the job exists and admits current (rue_job_admits), and
 * takes a use of the job that rue_job_unbind() drops: the job cannot be
 * deleted until then.  Process context.
 *
 * Return: 0, -EINVAL for an ID that is 0 or over 24 bits, -ENOENT if the
 * device has no such job, -EPERM if the job does not admit current.
 */
int rue_job_bind(struct rue_dev *rdev, u32 id)
{
	struct rue_jobs *jobs = &rdev->jobs;
	struct rue_job *job;
	int err = 0;

	if (!rue_job_id_ok(id))
		return -EINVAL;
	mutex_lock(&jobs->lock);
	job = xa_load(&jobs->table, id);
	if (!job)
		err = -ENOENT;
	else if (!rue_job_admits(rdev, &job->grant))
		err = -EPERM;
	else
		job->bound++;
	mutex_unlock(&jobs->lock);
	return err;
}

/**
 * rue_job_unbind() - drop the use of job @id that rue_job_bind() took
 * @rdev: the device
 * @id: the job ID that was bound
 */
void rue_job_unbind(struct rue_dev *rdev, u32 id)
{
	struct rue_jobs *jobs = &rdev->jobs;
	struct rue_job *job;

	mutex_lock(&jobs->lock);
	job = xa_load(&jobs->table, id);
	/* a bound job cannot be deleted: it must be there, and bound */
	if (!WARN_ON_ONCE(!job || !job->bound))
		job->bound--;
	mutex_unlock(&jobs->lock);
}

static void rue_job_info_fill(struct rue_job_info *info, unsigned long id,
			      const struct rue_job *job)
{
	info->id = id;
	info->grant = job->grant;
	info->bound = job->bound;
}

/**
 * rue_job_query() - a copy of one job
 * @rdev: the device
 * @id: the job ID
 * @info: filled on success
 *
 * Return: 0, or -ENOENT if the device has no such job.
 */
int rue_job_query(struct rue_dev *rdev, u32 id, struct rue_job_info *info)
{
	struct rue_jobs *jobs = &rdev->jobs;
	struct rue_job *job;
	int err = -ENOENT;

	if (!rue_job_id_ok(id))
		return -ENOENT;
	mutex_lock(&jobs->lock);
	job = xa_load(&jobs->table, id);
	if (job) {
		rue_job_info_fill(info, id, job);
		err = 0;
	}
	mutex_unlock(&jobs->lock);
	return err;
}

/**
 * rue_job_for_each() - call @fn for a device's jobs in ID order
 * @rdev: the device
 * @cursor: the first ID to visit; on return, where to resume
 * @fn: callback; a non-zero return stops the walk and is returned
 * @arg: passed to @fn
 *
 * @fn runs under the table's mutex and gets a copy of each job: it must
 * not call into this file.  When @fn stops the walk, @cursor is the ID it
 * stopped at, so that a netlink dump whose message filled up resumes with
 * that job.  When the walk completes, @cursor is past every ID.
 */
int rue_job_for_each(struct rue_dev *rdev, u32 *cursor, rue_job_iter_fn fn,
		     void *arg)
{
	struct rue_jobs *jobs = &rdev->jobs;
	struct rue_job_info info;
	struct rue_job *job;
	unsigned long id;
	int ret = 0;

	mutex_lock(&jobs->lock);
	xa_for_each_start(&jobs->table, id, job, *cursor) {
		rue_job_info_fill(&info, id, job);
		ret = fn(&info, arg);
		if (ret)
			break;
	}
	*cursor = ret ? id : RUE_JOB_ID_MAX + 1;
	mutex_unlock(&jobs->lock);
	return ret;
}
