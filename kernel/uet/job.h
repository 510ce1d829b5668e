/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET jobs: the per-device table of job IDs an administrator has granted,
 * and to whom.  A UET QP binds to one job when it is created.
 */
#ifndef _RUE_JOB_H
#define _RUE_JOB_H

#include <linux/mutex.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>
#include <linux/rue_netlink.h>

struct rue_dev;

struct rue_jobs {
	struct mutex lock;		/* the table and every bound count */
	struct xarray table;		/* struct rue_job by ID */
};

/*
 * Who may bind QPs to a job besides a CAP_NET_ADMIN holder: the user
 * @uid, members of the group @gid.  INVALID_UID / INVALID_GID: nobody
 * by that criterion.
 */
struct rue_job_grant {
	kuid_t uid;
	kgid_t gid;
};

/* A job as the iterator and rue_job_query() report it: a copy. */
struct rue_job_info {
	u32 id;
	struct rue_job_grant grant;
	u32 bound;			/* binds not yet unbound */
};

typedef int (*rue_job_iter_fn)(const struct rue_job_info *job, void *arg);

void rue_jobs_init(struct rue_jobs *jobs);
void rue_jobs_destroy(struct rue_jobs *jobs);

int rue_job_add(struct rue_dev *rdev, u32 id,
		const struct rue_job_grant *grant);
int rue_job_del(struct rue_dev *rdev, u32 id);
int __must_check rue_job_bind(struct rue_dev *rdev, u32 id);
void rue_job_unbind(struct rue_dev *rdev, u32 id);

int __must_check rue_job_query(struct rue_dev *rdev, u32 id,
			       struct rue_job_info *info);
int rue_job_for_each(struct rue_dev *rdev, u32 *cursor, rue_job_iter_fn fn,
		     void *arg);

int rue_job_selftest(void);

#endif /* _RUE_JOB_H */
