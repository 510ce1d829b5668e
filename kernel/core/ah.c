// SPDX-License-Identifier: GPL-2.0
/*
 * Address handles and address vectors.
 *
 * RoCEv2 addresses are IP addresses: the source comes from the GID table
 * entry the consumer chose, the destination from the destination GID.
 * The IP stack routes and resolves neighbours, so no destination MAC is
 * kept.
 *
 * User AHs get a number, which librue puts in UD work requests.  The core
 * frees an AH right after destroy_ah returns, so the send path copies the
 * address vector out under the xarray lock rather than holding the AH.
 */
#include <rdma/ib_cache.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/rue-abi.h>

#include "ah.h"
#include "caps.h"
#include "device.h"

int rue_av_from_attr(struct rue_av *av, const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid_attr;
	bool d4, v4;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid_attr = grh->sgid_attr;
	if (!sgid_attr || sgid_attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;

	memset(av, 0, sizeof(*av));
	av->network_type = rdma_gid_attr_network_type(sgid_attr);
	d4 = ipv6_addr_v4mapped((const struct in6_addr *)grh->dgid.raw);
	v4 = av->network_type == RDMA_NETWORK_IPV4;
	if (d4 != v4 ||
	    (av->network_type != RDMA_NETWORK_IPV4 &&
	     av->network_type != RDMA_NETWORK_IPV6))
		return -EINVAL;

	memcpy(&av->saddr, sgid_attr->gid.raw, sizeof(av->saddr));
	memcpy(&av->daddr, grh->dgid.raw, sizeof(av->daddr));
	av->tclass = grh->traffic_class;
	av->hop_limit = grh->hop_limit;
	av->flow_label = grh->flow_label;
	av->sgid_index = grh->sgid_index;
	av->sl = rdma_ah_get_sl(attr);
	return 0;
}

void rue_av_to_attr(const struct rue_av *av, struct rdma_ah_attr *attr)
{
	union ib_gid dgid;

	memcpy(dgid.raw, &av->daddr, sizeof(dgid.raw));
	memset(attr, 0, sizeof(*attr));
	attr->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(attr, 1);
	rdma_ah_set_sl(attr, av->sl);
	rdma_ah_set_grh(attr, &dgid, av->flow_label,
			av->sgid_index, av->hop_limit, av->tclass);
}

/**
 * rue_ah_lookup_av() - the address vector of a user AH
 * @rdev: the device
 * @pd: the PD of the QP using it; the AH must be of the same PD
 * @ah_num: the number create_ah returned
 * @av: filled on success
 */
int rue_ah_lookup_av(struct rue_dev *rdev, struct ib_pd *pd, u32 ah_num,
		     struct rue_av *av)
{
	struct rue_ah *ah;
	int err = -EINVAL;

	xa_lock_bh(&rdev->ahs);
	ah = xa_load(&rdev->ahs, ah_num);
	if (ah && ah->ibah.pd == pd) {
		*av = ah->av;
		err = 0;
	}
	xa_unlock_bh(&rdev->ahs);
	return err;
}

static int rue_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			 struct ib_udata *udata)
{
	struct rue_dev *rdev = to_rue_dev(ibah->device);
	struct rue_ah *ah = to_rue_ah(ibah);
	struct rue_create_ah_resp resp = {};
	int err;

	err = rue_av_from_attr(&ah->av, init->ah_attr);
	if (err)
		return err;
	if (!udata)
		return 0;

	err = xa_alloc_cyclic_bh(&rdev->ahs, &ah->ah_num, XA_ZERO_ENTRY,
				 XA_LIMIT(1, RUE_MAX_AH), &rdev->ah_next,
				 GFP_KERNEL);
	if (err < 0)
		return err;
	resp.ah_num = ah->ah_num;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err) {
		xa_erase_bh(&rdev->ahs, ah->ah_num);
		return err;
	}
	xa_store_bh(&rdev->ahs, ah->ah_num, ah, GFP_KERNEL);
	return 0;
}

static int rue_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	rue_av_to_attr(&to_rue_ah(ibah)->av, attr);
	return 0;
}

static int rue_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct rue_ah *ah = to_rue_ah(ibah);

	if (ah->ah_num)
		xa_erase_bh(&to_rue_dev(ibah->device)->ahs, ah->ah_num);
	return 0;
}

static const struct ib_device_ops rue_ah_ops = {
	.create_ah = rue_create_ah,
	.create_user_ah = rue_create_ah,
	.destroy_ah = rue_destroy_ah,
	.query_ah = rue_query_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, rue_ah, ibah),
};

void rue_ah_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_ah_ops);
}
