// The 18 chains of the catalog. Ids are the service's own catalog ids (not EVM chain ids) and
// never change. Fantom has deposits switched off, as a live catalog typically has one such chain.
import type { AddressFormat } from '../addresses/formats.js'

export interface ChainSpec {
  id: number
  name: string
  network: string
  neededConfirmations: number
  depositsActive: boolean
  format: AddressFormat
  /** Explorer URL prefix; the transaction hash is appended. */
  explorerTx: string
  /** The chain's native coin. */
  native: { symbol: string; name: string; decimals: number }
}

const eth = { symbol: 'ETH', name: 'Ethereum', decimals: 18 }

export const CHAINS: readonly ChainSpec[] = [
  chain(1, 'Bitcoin', 'BTC', 2, 'btc', 'https://mempool.space/tx/', {
    symbol: 'BTC',
    name: 'Bitcoin',
    decimals: 8,
  }),
  chain(2, 'Ethereum', 'ETH', 12, 'evm', 'https://etherscan.io/tx/', eth),
  chain(3, 'Solana', 'SOL', 1, 'sol', 'https://solscan.io/tx/', {
    symbol: 'SOL',
    name: 'Solana',
    decimals: 9,
  }),
  chain(4, 'Tron', 'TRX', 19, 'trx', 'https://tronscan.org/#/transaction/', {
    symbol: 'TRX',
    name: 'TRON',
    decimals: 6,
  }),
  chain(5, 'BNB Smart Chain', 'BSC', 15, 'evm', 'https://bscscan.com/tx/', {
    symbol: 'BNB',
    name: 'BNB',
    decimals: 18,
  }),
  chain(6, 'Polygon', 'POLYGON', 128, 'evm', 'https://polygonscan.com/tx/', {
    symbol: 'POL',
    name: 'Polygon Ecosystem Token',
    decimals: 18,
  }),
  chain(7, 'Arbitrum One', 'ARBITRUM', 20, 'evm', 'https://arbiscan.io/tx/', eth),
  chain(8, 'OP Mainnet', 'OPTIMISM', 20, 'evm', 'https://optimistic.etherscan.io/tx/', eth),
  chain(9, 'Base', 'BASE', 20, 'evm', 'https://basescan.org/tx/', eth),
  chain(10, 'Avalanche C-Chain', 'AVAX', 12, 'evm', 'https://snowtrace.io/tx/', {
    symbol: 'AVAX',
    name: 'Avalanche',
    decimals: 18,
  }),
  chain(11, 'Linea', 'LINEA', 20, 'evm', 'https://lineascan.build/tx/', eth),
  chain(12, 'zkSync Era', 'ZKSYNC', 20, 'evm', 'https://era.zksync.network/tx/', eth),
  chain(13, 'Litecoin', 'LTC', 6, 'ltc', 'https://litecoinspace.org/tx/', {
    symbol: 'LTC',
    name: 'Litecoin',
    decimals: 8,
  }),
  chain(14, 'Dogecoin', 'DOGE', 40, 'doge', 'https://dogechain.info/tx/', {
    symbol: 'DOGE',
    name: 'Dogecoin',
    decimals: 8,
  }),
  chain(15, 'XRP Ledger', 'XRP', 1, 'xrp', 'https://livenet.xrpl.org/transactions/', {
    symbol: 'XRP',
    name: 'XRP',
    decimals: 6,
  }),
  chain(16, 'TON', 'TON', 1, 'ton', 'https://tonviewer.com/transaction/', {
    symbol: 'TON',
    name: 'Toncoin',
    decimals: 9,
  }),
  chain(17, 'Sui', 'SUI', 1, 'sui', 'https://suiscan.xyz/mainnet/tx/', {
    symbol: 'SUI',
    name: 'Sui',
    decimals: 9,
  }),
  chain(
    18,
    'Fantom',
    'FTM',
    30,
    'evm',
    'https://ftmscan.com/tx/',
    { symbol: 'FTM', name: 'Fantom', decimals: 18 },
    false,
  ),
]

function chain(
  id: number,
  name: string,
  network: string,
  neededConfirmations: number,
  format: AddressFormat,
  explorerTx: string,
  native: ChainSpec['native'],
  depositsActive = true,
): ChainSpec {
  return { id, name, network, neededConfirmations, depositsActive, format, explorerTx, native }
}
