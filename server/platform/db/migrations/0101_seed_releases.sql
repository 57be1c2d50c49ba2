-- The two releases the catalog starts with. The files are not on this machine, so their SHA-256
-- values and sizes are deterministic stand-ins (decision 041); `npm run admin -- releases publish`
-- records real ones for every later release.
insert into releases (version, release_date, prerelease, notes) values
  ('3.2.1', '2025-05-30', false, array[
    'Choose the metadata version and the API version that Orgsmith uses when it talks to your orgs.',
    'Deprecated: the licence-key command-line arguments. Pass an access token with the new access-token argument instead, and update your scripts and CI pipelines accordingly.'
  ]),
  ('3.2.2', '2025-06-07', false, array[
    'Fixed an access error after a sandbox refresh: commands against a freshly refreshed sandbox no longer fail with `INSUFFICIENT_ACCESS: Inactive Organization`.'
  ])
on conflict (version) do nothing;

insert into release_artifacts (release_id, operating_system, architecture, format, description, file_name, sha256, size_bytes)
select releases.id, a.operating_system, a.architecture, a.format, a.description, a.file_name, a.sha256, a.size_bytes
from releases, (values
  ('Windows', 'x64', 'msi', 'Windows installer (.msi) for 64-bit Windows', 'orgsmith-3.2.1-win-x64.msi', 'e65fa68df39e8dee90da3e8bde122d19b58389e15059e2bb662de196a7f9ed5c', 46497766),
  ('Windows', 'x86', 'msi', 'Windows installer (.msi) for 32-bit Windows', 'orgsmith-3.2.1-win-x86.msi', '4ca9e01d80d40bbfd0ebefa24034e69bfa40ffab87ad0d777b878267fc1cd17b', 43124224),
  ('Windows', 'x64', 'zip', 'Windows zip archive for 64-bit Windows', 'orgsmith-3.2.1-win-x64.zip', '194b5e804e7d71f40f175e754d1f0c7f93adf117ae52c4d3bf2d61c4654249ea', 47757694),
  ('Windows', 'x86', 'zip', 'Windows zip archive for 32-bit Windows', 'orgsmith-3.2.1-win-x86.zip', '667045c67a88b104bc438f79333ea921971c8e87939a5bf186ac309d13d2f7ed', 44613413),
  ('macOS', 'universal', 'pkg', 'macOS installer (.pkg), universal for Apple Silicon and Intel Macs', 'orgsmith-3.2.1-osx-universal.pkg', '890464ef48b84991f463cac44c0cabd86685da7db1ad0f9902115bac51610c66', 93979556),
  ('macOS', 'x64', 'pkg', 'macOS installer (.pkg) for Intel Macs', 'orgsmith-3.2.1-osx-x64.pkg', 'a7c053f208c8bab7de8975dfe1733e8113f8f90bca822af1737732e7ad2ad467', 48093747),
  ('macOS', 'arm64', 'pkg', 'macOS installer (.pkg) for Apple Silicon Macs', 'orgsmith-3.2.1-osx-arm64.pkg', 'b5e8cde132a83bfd9486262f36286570d24f7b77f6561f75fe793dfcade042af', 45921613),
  ('macOS', 'universal', 'zip', 'macOS zip archive, universal for Apple Silicon and Intel Macs', 'orgsmith-3.2.1-osx-universal.zip', '2eb527ad86a3324f4759f07d680f4e475f576efcf1e3c8d2e98e4aa2ac4cab4c', 95361031),
  ('macOS', 'x64', 'zip', 'macOS zip archive for Intel Macs', 'orgsmith-3.2.1-osx-x64.zip', 'c98a28b638381ab7e971117bb4340435110345d0fa6901c0f5a735bf927eed90', 48608104),
  ('macOS', 'arm64', 'zip', 'macOS zip archive for Apple Silicon Macs', 'orgsmith-3.2.1-osx-arm64.zip', 'e0e78d97fa9bd2ee0333ef49243a631d235913321ee92371f759c6d4b1abc40d', 46639341),
  ('Linux', 'x64', 'zip', 'Linux zip archive for x64', 'orgsmith-3.2.1-linux-x64.zip', '562868fe455c8b094d9900fdb26ffba8e968b59728a616faf1f4c825e8490b1d', 49446440),
  ('Linux', 'arm64', 'zip', 'Linux zip archive for arm64', 'orgsmith-3.2.1-linux-arm64.zip', '5708398449cea66f566ea3992806793c1da08f75498c401608bf1edaf565d96e', 46903737)
) as a (operating_system, architecture, format, description, file_name, sha256, size_bytes)
where releases.version = '3.2.1'
on conflict do nothing;

insert into release_artifacts (release_id, operating_system, architecture, format, description, file_name, sha256, size_bytes)
select releases.id, a.operating_system, a.architecture, a.format, a.description, a.file_name, a.sha256, a.size_bytes
from releases, (values
  ('Windows', 'x64', 'msi', 'Windows installer (.msi) for 64-bit Windows', 'orgsmith-3.2.2-win-x64.msi', 'f93301de62ae66d88491d58b3bd9eeb1408b3cec62c1abc3566431245ca5fec7', 46543809),
  ('Windows', 'x86', 'msi', 'Windows installer (.msi) for 32-bit Windows', 'orgsmith-3.2.2-win-x86.msi', 'dfa52a62ce4097d0a3f740fc7dce4b308dd8d76324665b513975926867c81c52', 43169098),
  ('Windows', 'x64', 'zip', 'Windows zip archive for 64-bit Windows', 'orgsmith-3.2.2-win-x64.zip', '31ac82020e2ab27ac3be83c428a80deb056d735f42b3387f66f5a7296029cf43', 47767714),
  ('Windows', 'x86', 'zip', 'Windows zip archive for 32-bit Windows', 'orgsmith-3.2.2-win-x86.zip', '66c0f726cf9cb98dda09b4182a5293c5a563f850955d96a0b1d08e2c4278b9ec', 44646359),
  ('macOS', 'universal', 'pkg', 'macOS installer (.pkg), universal for Apple Silicon and Intel Macs', 'orgsmith-3.2.2-osx-universal.pkg', 'e6f5724c41b171a920fe137eaa5c735812e2661fa325bbe0f86473604f1a12b1', 94148402),
  ('macOS', 'x64', 'pkg', 'macOS installer (.pkg) for Intel Macs', 'orgsmith-3.2.2-osx-x64.pkg', 'f0599c2ea109015b2541d51a5237783b9269eb55da47c744e0771fe6d92206de', 48063868),
  ('macOS', 'arm64', 'pkg', 'macOS installer (.pkg) for Apple Silicon Macs', 'orgsmith-3.2.2-osx-arm64.pkg', '10976c65230ca4a0840311e5a4246f614cd14c79e17648f6bc3d197b383d4798', 45899628),
  ('macOS', 'universal', 'zip', 'macOS zip archive, universal for Apple Silicon and Intel Macs', 'orgsmith-3.2.2-osx-universal.zip', 'dfcc57cd24b95ae2348488d5c088ad7d106466b9ec8f72092789b153044d04d3', 95379127),
  ('macOS', 'x64', 'zip', 'macOS zip archive for Intel Macs', 'orgsmith-3.2.2-osx-x64.zip', '7e7e386f82a2010d6dd70f97d99b70156fa64c6445c9b8002a6ad1b1b66e6cd5', 48902136),
  ('macOS', 'arm64', 'zip', 'macOS zip archive for Apple Silicon Macs', 'orgsmith-3.2.2-osx-arm64.zip', '4c61ae926e06a022f2e0110cbf89beca42e423a870cc8b62686bb21c11b8fdce', 46518030),
  ('Linux', 'x64', 'zip', 'Linux zip archive for x64', 'orgsmith-3.2.2-linux-x64.zip', '02e95a26f1493ac733eae58dc9a991b3bbf1791e0e09fa2bef781e515311c13b', 49603098),
  ('Linux', 'arm64', 'zip', 'Linux zip archive for arm64', 'orgsmith-3.2.2-linux-arm64.zip', '3e9cd4cf8b895e7591f160f5aecd5c4ffaaa363ebcc7284f2d5c8591865f6c4c', 46915668)
) as a (operating_system, architecture, format, description, file_name, sha256, size_bytes)
where releases.version = '3.2.2'
on conflict do nothing;
