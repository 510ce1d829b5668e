/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address vectors (where a packet goes) and address handles.
 */
#ifndef _RUE_AH_H
#define _RUE_AH_H

#include <linux/in6.h>
#include <rdma/ib_verbs.h>

/*
 * A RoCEv2 destination: IP addresses from the source GID entry and the
 * destination GID, plus the GRH fields that become IP header fields.
 * IPv4 addresses are kept IPv4-mapped.
 */
struct rue_av {
	u8 network_type;		/* RDMA_NETWORK_IPV4 or _IPV6 */
	u8 tclass;			/* DSCP and ECN bits */
	u8 hop_limit;
	u8 sl;
	u8 sgid_index;
	u32 flow_label;
	struct in6_addr saddr;
	struct in6_addr daddr;
};

struct rue_ah {
	struct ib_ah ibah;
	struct rue_av av;
	u32 ah_num;			/* user AHs: index in rdev->ahs */
};

static inline struct rue_ah *to_rue_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct rue_ah, ibah);
}

int rue_av_from_attr(struct rue_av *av, const struct rdma_ah_attr *attr);
void rue_av_to_attr(const struct rue_av *av, struct rdma_ah_attr *attr);

struct rue_dev;
int rue_ah_lookup_av(struct rue_dev *rdev, struct ib_pd *pd, u32 ah_num,
		     struct rue_av *av);

void rue_ah_set_ops(struct ib_device *ibdev);

#endif /* _RUE_AH_H */
