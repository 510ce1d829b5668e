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

#include "job.h"
#include "core/device.h"

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

static int jobs_add(struct rue_jobs *jobs, u32 id,
		    const struct rue_job_grant *grant)
{
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
	return 0;
}

static int jobs_del(struct rue_jobs *jobs, u32 id)
{
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
	if (!err)
		kfree(job);
	return err;
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
	int err = jobs_add(&rdev->jobs, id, grant);

	if (!err)
		rue_dbg_dev(rdev, "job %u granted\n", id);
	return err;
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
	int err = jobs_del(&rdev->jobs, id);

	if (!err)
		rue_dbg_dev(rdev, "job %u revoked\n", id);
	return err;
}

/*
 * Whether current may use @job: its effective user is the job's user, or
 * it is in the job's group (effective or supplementary), or it has
 * CAP_NET_ADMIN over the device's network namespace.  The capability is
 * tried last, so that a caller the grant admits does not show up in the
 * audit log as having used it.
 */
static bool jobs_admit(struct user_namespace *admin_ns,
		       const struct rue_job_grant *grant)
{
	if (uid_valid(grant->uid) && uid_eq(current_euid(), grant->uid))
		return true;
	if (gid_valid(grant->gid) && in_egroup_p(grant->gid))
		return true;
	return ns_capable(admin_ns, CAP_NET_ADMIN);
}

static int jobs_bind(struct rue_jobs *jobs, struct user_namespace *admin_ns,
		     u32 id)
{
	struct rue_job *job;
	int err = 0;

	if (!rue_job_id_ok(id))
		return -EINVAL;
	mutex_lock(&jobs->lock);
	job = xa_load(&jobs->table, id);
	if (!job)
		err = -ENOENT;
	else if (!jobs_admit(admin_ns, &job->grant))
		err = -EPERM;
	else
		job->bound++;
	mutex_unlock(&jobs->lock);
	return err;
}

static void jobs_unbind(struct rue_jobs *jobs, u32 id)
{
	struct rue_job *job;

	mutex_lock(&jobs->lock);
	job = xa_load(&jobs->table, id);
	/* a bound job cannot be deleted: it must be there, and bound */
	if (!WARN_ON_ONCE(!job || !job->bound))
		job->bound--;
	mutex_unlock(&jobs->lock);
}

/**
 * rue_job_bind() - let current's new QP use job @id
 * @rdev: the device
 * @id: the job ID
 *
 * Succeeds if the job exists and admits current (jobs_admit), and
 * takes a use of the job that rue_job_unbind() drops: the job cannot be
 * deleted until then.  Process context.
 *
 * Return: 0, -EINVAL for an ID that is 0 or over 24 bits, -ENOENT if the
 * device has no such job, -EPERM if the job does not admit current.
 */
int rue_job_bind(struct rue_dev *rdev, u32 id)
{
	return jobs_bind(&rdev->jobs, rdev->user_ns, id);
}

/**
 * rue_job_unbind() - drop the use of job @id that rue_job_bind() took
 * @rdev: the device
 * @id: the job ID that was bound
 */
void rue_job_unbind(struct rue_dev *rdev, u32 id)
{
	jobs_unbind(&rdev->jobs, id);
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

/* ------------------------------------------------------------------ */
/* Self-test, at module load                                           */

/*
 * Switch current to a made-up user @uid in group @gid, with no
 * supplementary groups and no capabilities but CAP_NET_ADMIN if @admin,
 * so that only a grant (or that) can admit it.
 * Return: the credentials to revert to, or NULL.
 */
static const struct cred *jobs_test_become(struct cred **cred, u32 uid,
					   u32 gid, bool admin)
{
	struct group_info *none;

	*cred = prepare_creds();
	if (!*cred)
		return NULL;
	none = groups_alloc(0);
	if (!none) {
		abort_creds(*cred);
		return NULL;
	}
	set_groups(*cred, none);
	put_group_info(none);
	(*cred)->euid = KUIDT_INIT(uid);
	(*cred)->fsuid = (*cred)->euid;
	(*cred)->egid = KGIDT_INIT(gid);
	(*cred)->fsgid = (*cred)->egid;
	cap_clear((*cred)->cap_effective);
	if (admin)
		cap_raise((*cred)->cap_effective, CAP_NET_ADMIN);
	return override_creds(*cred);
}

struct jobs_test {
	u32 id;
	u32 uid, gid;		/* the grant; 0: none (0 is root's) */
	int bind;		/* what the test user's bind gets */
};

/* The test user is uid 4000, gid 4100. */
static const struct jobs_test jobs_tests[] = {
	{ 1, 4000, 0, 0 },		/* its user */
	{ 2, 0, 4100, 0 },		/* its group */
	{ 3, 4001, 4101, -EPERM },	/* someone else's */
	{ 4, 0, 0, -EPERM },		/* CAP_NET_ADMIN only */
	{ RUE_JOB_ID_MAX, 4000, 4101, 0 },
};

static int jobs_test_grants(struct rue_jobs *jobs)
{
	const struct jobs_test *t;
	struct rue_job_grant grant;

	for (t = jobs_tests; t < jobs_tests + ARRAY_SIZE(jobs_tests); t++) {
		grant.uid = t->uid ? KUIDT_INIT(t->uid) : INVALID_UID;
		grant.gid = t->gid ? KGIDT_INIT(t->gid) : INVALID_GID;
		if (jobs_add(jobs, t->id, &grant))
			return -ENOTRECOVERABLE;
	}
	return 0;
}

/*
 * Bind every job of the table as a user.  Return: how many answers were
 * not @want's (the table's if NULL), or -ENOMEM.
 */
static int jobs_test_bind_as(struct rue_jobs *jobs, u32 uid, u32 gid,
			     bool admin, const int *want)
{
	const struct cred *old;
	struct cred *cred;
	unsigned int i;
	int bad = 0;

	old = jobs_test_become(&cred, uid, gid, admin);
	if (!old)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(jobs_tests); i++)
		bad += jobs_bind(jobs, &init_user_ns, jobs_tests[i].id) !=
		       (want ? want[i] : jobs_tests[i].bind);
	revert_creds(old);
	put_cred(cred);
	return bad;
}

/*
 * Binds as the test user, each as the table says, then as another user
 * with CAP_NET_ADMIN, which every job admits: each bind counted, and a
 * bound job not deleted.
 */
static int jobs_test_binds(struct rue_jobs *jobs)
{
	static const int admitted[ARRAY_SIZE(jobs_tests)];
	const struct jobs_test *t;
	struct rue_job *job;
	int bad, more;

	bad = jobs_test_bind_as(jobs, 4000, 4100, false, NULL);
	more = jobs_test_bind_as(jobs, 4002, 4102, true, admitted);
	if (bad < 0 || more < 0)
		return -ENOMEM;
	bad += more;
	for (t = jobs_tests; t < jobs_tests + ARRAY_SIZE(jobs_tests); t++) {
		job = xa_load(&jobs->table, t->id);
		bad += !job || job->bound != (t->bind ? 1 : 2);
		bad += jobs_del(jobs, t->id) != -EBUSY;
		jobs_unbind(jobs, t->id);
		if (!t->bind)
			jobs_unbind(jobs, t->id);
	}
	return bad ? -ENOTRECOVERABLE : 0;
}

/* IDs out of range, duplicates, and jobs that are not there. */
static int jobs_test_ids(struct rue_jobs *jobs)
{
	struct rue_job_grant none = { INVALID_UID, INVALID_GID };
	struct cred *cred;
	const struct cred *old;
	int bad = 0;

	bad += jobs_add(jobs, 0, &none) != -EINVAL;
	bad += jobs_add(jobs, RUE_JOB_ID_MAX + 1, &none) != -EINVAL;
	bad += jobs_add(jobs, 1, &none) != -EEXIST;
	bad += jobs_del(jobs, 5) != -ENOENT;
	bad += jobs_del(jobs, 0) != -ENOENT;
	old = jobs_test_become(&cred, 4000, 4100, true);
	if (!old)
		return -ENOMEM;
	bad += jobs_bind(jobs, &init_user_ns, 0) != -EINVAL;
	bad += jobs_bind(jobs, &init_user_ns, RUE_JOB_ID_MAX + 1) != -EINVAL;
	bad += jobs_bind(jobs, &init_user_ns, 5) != -ENOENT;
	revert_creds(old);
	put_cred(cred);
	return bad ? -ENOTRECOVERABLE : 0;
}

/* Every job unbound again: each deletes once, and is then gone. */
static int jobs_test_empty(struct rue_jobs *jobs)
{
	const struct jobs_test *t;
	int bad = 0;

	for (t = jobs_tests; t < jobs_tests + ARRAY_SIZE(jobs_tests); t++) {
		bad += jobs_del(jobs, t->id) != 0;
		bad += jobs_del(jobs, t->id) != -ENOENT;
	}
	bad += !xa_empty(&jobs->table);
	return bad ? -ENOTRECOVERABLE : 0;
}

/**
 * rue_job_selftest() - the job table's answers, and whom grants admit
 *
 * Run at module load, on a table of its own.  Binds run as a made-up
 * user without capabilities, so that only the grants admit them.
 *
 * Return: 0, -ENOMEM, or -ENOTRECOVERABLE when an answer is wrong.
 */
int rue_job_selftest(void)
{
	struct rue_jobs jobs;
	int err;

	rue_jobs_init(&jobs);
	err = jobs_test_grants(&jobs);
	if (!err)
		err = jobs_test_ids(&jobs);
	if (!err)
		err = jobs_test_binds(&jobs);
	if (!err)
		err = jobs_test_empty(&jobs);
	/* after a failure, a bind that should have failed may be left */
	if (err)
		pr_err("job table self-test failed: %d\n", err);
	rue_jobs_destroy(&jobs);
	return err;
}
