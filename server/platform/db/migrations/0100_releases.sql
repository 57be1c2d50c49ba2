-- The release catalog (issue #5): one row per published version, one per downloadable file.
-- Download links are not stored: they are built at read time from DOWNLOAD_BASE_URL and file_name.
create table releases (
  id integer generated always as identity primary key,
  version text not null unique,
  release_date date not null,
  prerelease boolean not null default false,
  notes text[] not null default '{}',
  published_at timestamptz not null default now()
);

create table release_artifacts (
  id integer generated always as identity primary key,
  release_id integer not null references releases (id) on delete cascade,
  operating_system text not null check (operating_system in ('Windows', 'macOS', 'Linux')),
  architecture text not null check (architecture in ('x86', 'x64', 'arm64', 'universal')),
  format text not null check (format in ('msi', 'zip', 'pkg')),
  description text not null,
  file_name text not null unique,
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes bigint not null check (size_bytes > 0),
  unique (release_id, operating_system, architecture, format),
  check (format <> 'msi' or operating_system = 'Windows'),
  check (format <> 'pkg' or operating_system = 'macOS'),
  check (architecture <> 'universal' or operating_system = 'macOS')
);
