// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 Invariant CRC (IBTA annex A17.3.3).
 *
 * The ICRC is the Ethernet CRC-32 over: 64 bits of ones standing for the
 * masked LRH, the IP header with its variant fields (IPv4: TOS, TTL,
 * checksum; IPv6: traffic class, flow label, hop limit) set to ones, the
 * UDP header with its checksum set to ones, the BTH with its reserved
 * FECN/BECN byte set to ones, and everything after up to the ICRC.  It is
 * sent least significant byte first, which is how the kernel's crc32_le()
 * leaves it in memory on little-endian machines, so rdma_rxe and hardware
 * agree with it.
 *
 * The data part is walked with __skb_checksum(), so payload in page
 * fragments (zero-copy transmit, or what a veth peer hands us) is never
 * linearized: crc32_le() runs on each piece and crc32_le_combine() joins
 * them.
 */
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/checksum.h>

#include "icrc.h"
#include "roce.h"

/* crc32_le(~0, 8 bytes of 0xff): the CRC state after the masked LRH. */
#define RUE_ICRC_SEED 0xdebb20e3U

static __wsum rue_icrc_update(const void *buf, int len, __wsum crc)
{
	return (__force __wsum)crc32_le((__force u32)crc, buf, len);
}

static __wsum rue_icrc_combine(__wsum crc1, __wsum crc2, int offset, int len)
{
	return (__force __wsum)crc32_le_combine((__force u32)crc1,
						(__force u32)crc2, len);
}

static const struct skb_checksum_ops rue_icrc_ops = {
	.update = rue_icrc_update,
	.combine = rue_icrc_combine,
};

/**
 * rue_icrc() - compute the ICRC of a RoCEv2 packet
 * @skb: the packet; its network header is set, and the IP and UDP headers
 *	and the BTH are in the linear area
 * @bth_off: offset of the BTH from skb->data
 * @len: bytes from the BTH to the ICRC, exclusive
 *
 * Return: the ICRC as it goes on the wire (store with put_unaligned_le32).
 */
u32 rue_icrc(const struct sk_buff *skb, unsigned int bth_off, unsigned int len)
{
	u8 pseudo[sizeof(struct ipv6hdr) + sizeof(struct udphdr) +
		  sizeof(struct rue_bth)];
	const u8 *nh = skb_network_header(skb);
	unsigned int iplen;
	struct rue_bth *bth;
	struct udphdr *udp;
	u32 crc;

	if (ip_hdr(skb)->version == 4) {
		struct iphdr *ip4 = (struct iphdr *)pseudo;

		iplen = sizeof(*ip4);
		memcpy(pseudo, nh, iplen + sizeof(*udp) + sizeof(*bth));
		ip4->tos = 0xff;
		ip4->ttl = 0xff;
		ip4->check = CSUM_MANGLED_0;
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)pseudo;

		iplen = sizeof(*ip6);
		memcpy(pseudo, nh, iplen + sizeof(*udp) + sizeof(*bth));
		ip6->priority = 0xf;
		memset(ip6->flow_lbl, 0xff, sizeof(ip6->flow_lbl));
		ip6->hop_limit = 0xff;
	}
	udp = (struct udphdr *)(pseudo + iplen);
	udp->check = CSUM_MANGLED_0;
	bth = (struct rue_bth *)(udp + 1);
	bth->qpn |= cpu_to_be32(~RUE_BTH_QPN_MASK);

	crc = crc32_le(RUE_ICRC_SEED, pseudo, iplen + sizeof(*udp) + sizeof(*bth));
	crc = (__force u32)__skb_checksum(skb, bth_off + sizeof(*bth),
					  len - sizeof(*bth),
					  (__force __wsum)crc, &rue_icrc_ops);
	return ~crc;
}

/* The seed is what it claims to be. */
int rue_icrc_selftest(void)
{
	static const u8 ones[8] = { 0xff, 0xff, 0xff, 0xff,
				    0xff, 0xff, 0xff, 0xff };

	if (crc32_le(~0U, ones, sizeof(ones)) != RUE_ICRC_SEED) {
		pr_err("ICRC seed self-test failed\n");
		return -ENOTRECOVERABLE;
	}
	return 0;
}
