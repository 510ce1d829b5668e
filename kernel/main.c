// SPDX-License-Identifier: GPL-2.0
/*
 * rue: a software RDMA device speaking RoCEv2 and Ultra Ethernet
 * Transport over any Ethernet netdev.  Module init and exit only.
 */
#include <linux/module.h>

#include "link.h"
#include "core/mr.h"
#include "core/netlink.h"
#include "core/stats.h"
#include "net/loop.h"
#include "net/net.h"
#include "roce/icrc.h"
#include "uet/job.h"

static int __init rue_init(void)
{
	int err;

	err = rue_icrc_selftest();
	if (err)
		return err;
	err = rue_stats_check();
	if (err)
		return err;
	err = rue_job_selftest();
	if (err)
		return err;
	err = rue_mr_selftest();
	if (err)
		return err;
	err = rue_mr_init();
	if (err)
		return err;
	err = rue_loop_init();
	if (err)
		goto err_mr;
	err = rue_net_init();
	if (err)
		goto err_loop;
	err = rue_netlink_init();
	if (err)
		goto err_net;
	/* Last: "rdma link add" can reach us from here on. */
	err = rue_link_init();
	if (err)
		goto err_netlink;

	pr_info("rue %s loaded\n", RUE_VERSION);
	return 0;

err_netlink:
	rue_netlink_exit();
err_net:
	rue_net_exit();
err_loop:
	rue_loop_exit();
err_mr:
	rue_mr_exit();
	return err;
}

static void __exit rue_exit(void)
{
	rue_link_exit();
	rue_netlink_exit();
	rue_net_exit();
	rue_loop_exit();
	/* last: a QP's or an skb's last MR reference may have dropped late */
	rue_mr_exit();
	pr_info("rue unloaded\n");
}

module_init(rue_init);
module_exit(rue_exit);

MODULE_DESCRIPTION("rue: software RDMA over RoCEv2 and Ultra Ethernet Transport");
MODULE_LICENSE("GPL");
MODULE_VERSION(RUE_VERSION);
