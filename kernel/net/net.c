// SPDX-License-Identifier: GPL-2.0
/*
 * Per-namespace UDP sockets.
 *
 * A rue device receives through kernel UDP sockets bound in its netdev's
 * network namespace.  They exist only while some device in that namespace
 * needs them: the first device to attach creates them, the last to detach
 * releases them.  So loading rue binds nothing, and a namespace where
 * rdma_rxe owns UDP 4791 is no obstacle to rue links in other namespaces.
 *
 * Devices detach before their namespace dies (NETDEV_UNREGISTER of the
 * lower netdev, see device.c), so by the time our pernet exit runs the
 * sockets are normally gone; it releases whatever is left regardless.
 */
#include <linux/module.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_verbs.h>

#include "net.h"
#include "recv.h"
#include "uet/uet.h"

struct rue_net {
	struct mutex lock;		/* users and the sockets */
	unsigned int users;		/* attached devices */
	struct socket *roce4;
	struct socket *roce6;
	struct socket *uet4;		/* UDP 4793 */
	struct socket *uet6;
};

static unsigned int rue_net_id __read_mostly;

static struct socket *rue_sock_create(struct net *net, __be16 port, bool ipv6,
				      int (*rcv)(struct sock *, struct sk_buff *))
{
	struct udp_tunnel_sock_cfg tnl = {
		.encap_type = 1,
		.encap_rcv = rcv,
	};
	struct udp_port_cfg cfg = {
		.local_udp_port = port,
	};
	struct socket *sock;
	int err;

	if (ipv6) {
		cfg.family = AF_INET6;
		cfg.ipv6_v6only = 1;
		/* RoCEv2 senders put a zero UDP checksum on IPv6 too. */
		cfg.use_udp6_rx_checksums = 0;
	} else {
		cfg.family = AF_INET;
	}

	err = udp_sock_create(net, &cfg, &sock);
	if (err)
		return ERR_PTR(err);
	setup_udp_tunnel_sock(net, sock, &tnl);
	return sock;
}

static void rue_sock_release(struct socket **sock)
{
	if (*sock) {
		udp_tunnel_sock_release(*sock);
		*sock = NULL;
	}
}

static void rue_net_release(struct rue_net *rn)
{
	rue_sock_release(&rn->uet6);
	rue_sock_release(&rn->uet4);
	rue_sock_release(&rn->roce6);
	rue_sock_release(&rn->roce4);
}

static int rue_net_open(struct net *net, struct rue_net *rn)
{
	struct socket *sock;

	sock = rue_sock_create(net, htons(ROCE_V2_UDP_DPORT), false,
			       rue_recv_roce_encap);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	rn->roce4 = sock;

	sock = rue_sock_create(net, htons(ROCE_V2_UDP_DPORT), true,
			       rue_recv_roce_encap);
	if (IS_ERR(sock)) {
		/* A namespace without IPv6 still gets RoCEv2 over IPv4. */
		if (PTR_ERR(sock) == -EAFNOSUPPORT)
			return 0;
		rue_net_release(rn);
		return PTR_ERR(sock);
	}
	rn->roce6 = sock;
	return 0;
}

/*
 * UET's sockets: UDP 4793 over IPv4 and IPv6.  A namespace without IPv6
 * does without the second.
 */
static int rue_net_open_uet(struct net *net, struct rue_net *rn)
{
	struct socket *sock;

	sock = rue_sock_create(net, htons(RUE_UET_UDP_PORT), false,
			       rue_recv_uet_encap);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	rn->uet4 = sock;
	sock = rue_sock_create(net, htons(RUE_UET_UDP_PORT), true,
			       rue_recv_uet_encap);
	if (IS_ERR(sock))
		return PTR_ERR(sock) == -EAFNOSUPPORT ? 0 : PTR_ERR(sock);
	rn->uet6 = sock;
	return 0;
}

/**
 * rue_net_get() - take a user reference on @net's sockets
 * @net: the namespace of an attaching device's netdev
 *
 * Creates the sockets for the first user.
 *
 * Return: 0, or -EADDRINUSE when another owner has the port, or another
 * negative errno.
 */
int rue_net_get(struct net *net)
{
	struct rue_net *rn = net_generic(net, rue_net_id);
	int err = 0;

	mutex_lock(&rn->lock);
	if (!rn->users) {
		err = rue_net_open(net, rn);
		if (!err) {
			err = rue_net_open_uet(net, rn);
			if (err)
				rue_net_release(rn);
		}
	}
	if (!err)
		rn->users++;
	mutex_unlock(&rn->lock);
	return err;
}

void rue_net_put(struct net *net)
{
	struct rue_net *rn = net_generic(net, rue_net_id);

	mutex_lock(&rn->lock);
	if (!WARN_ON_ONCE(!rn->users) && !--rn->users)
		rue_net_release(rn);
	mutex_unlock(&rn->lock);
}

static int __net_init rue_pernet_init(struct net *net)
{
	struct rue_net *rn = net_generic(net, rue_net_id);

	mutex_init(&rn->lock);
	return 0;
}

static void __net_exit rue_pernet_exit(struct net *net)
{
	struct rue_net *rn = net_generic(net, rue_net_id);

	mutex_lock(&rn->lock);
	rue_net_release(rn);
	rn->users = 0;
	mutex_unlock(&rn->lock);
	mutex_destroy(&rn->lock);
}

static struct pernet_operations rue_pernet_ops = {
	.init = rue_pernet_init,
	.exit = rue_pernet_exit,
	.id = &rue_net_id,
	.size = sizeof(struct rue_net),
};

int rue_net_init(void)
{
	return register_pernet_subsys(&rue_pernet_ops);
}

void rue_net_exit(void)
{
	unregister_pernet_subsys(&rue_pernet_ops);
}
